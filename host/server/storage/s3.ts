/**
 * Files in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2...), one object per file under its
 * SHA-256. STORAGE_URL = `s3://[key:secret@]bucket[/prefix]?endpoint=https://…&region=…&path-style=1`;
 * without key and secret in the URL the SDK's own chain supplies credentials (AWS_ACCESS_KEY_ID
 * and AWS_SECRET_ACCESS_KEY, a profile, an instance role).
 */
import { createHash } from 'node:crypto'
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import { checkedStream, type FileStore, type StoredObject } from './file-store.js'
import { MAX_STORAGE_REDIRECT_SECONDS } from '../config.js'

export interface S3Settings {
  bucket: string
  prefix: string
  client: S3ClientConfig
}

export function parseS3Url(url: string): S3Settings {
  const u = new URL(url)
  if (u.protocol !== 's3:' || !u.hostname) throw new Error('STORAGE_URL: expected s3://bucket[/prefix]')
  const q = u.searchParams
  const endpoint = q.get('endpoint') ?? undefined
  if (endpoint && !/^https?:\/\/[^/]/.test(endpoint)) throw new Error('STORAGE_URL: endpoint must be an http(s) URL')
  const prefix = decodeURIComponent(u.pathname.replace(/^\/+/, ''))
  return {
    bucket: u.hostname,
    prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
    client: {
      region: q.get('region') ?? process.env.AWS_REGION ?? 'us-east-1',
      ...(endpoint && { endpoint }),
      forcePathStyle: ['1', 'true'].includes(q.get('path-style') ?? ''),
      ...(u.username && { credentials: { accessKeyId: decodeURIComponent(u.username), secretAccessKey: decodeURIComponent(u.password) } }),
      // A stuck store answers a request with an error, not a hung worker.
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
      maxAttempts: 3,
    },
  }
}

export function openS3Store(url: string): FileStore {
  const { bucket, prefix, client: config } = parseS3Url(url)
  const s3 = new S3Client(config)
  const Key = (sha256: string) => `${prefix}${sha256}`
  const isMissing = (err: unknown) => {
    const e = err as { name?: string; $metadata?: { httpStatusCode?: number } }
    return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404
  }
  const body = async (sha256: string) => {
    try {
      const res = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: Key(sha256) }))
      return res.Body!
    } catch (err) {
      if (isMissing(err)) throw new Error(`stored file ${sha256} is missing from the bucket`)
      throw err
    }
  }
  return {
    label: `s3://${bucket}/${prefix}`,
    async put(sha256, bytes) {
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: Key(sha256), Body: bytes, ContentType: 'application/pdf', ContentLength: bytes.byteLength }))
    },
    async get(sha256) {
      const bytes = await (await body(sha256)).transformToByteArray()
      if (createHash('sha256').update(bytes).digest('hex') !== sha256) throw new Error(`stored file ${sha256} does not match its hash`)
      return bytes
    },
    async stream(sha256) {
      return checkedStream((await body(sha256)).transformToWebStream() as ReadableStream<Uint8Array>, sha256)
    },
    presignedUrl(sha256, { filename, seconds }) {
      const disposition = `attachment; filename="${filename.replace(/[^\w. -]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(filename)}`
      const get = new GetObjectCommand({ Bucket: bucket, Key: Key(sha256), ResponseContentDisposition: disposition, ResponseContentType: 'application/pdf' })
      // However it was configured: a presigned URL outlives any revocation (config.ts).
      return getSignedUrl(s3, get, { expiresIn: Math.min(seconds, MAX_STORAGE_REDIRECT_SECONDS) })
    },
    async *list() {
      let ContinuationToken: string | undefined
      do {
        const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken }))
        const objects: StoredObject[] = []
        for (const o of page.Contents ?? []) {
          const sha256 = o.Key!.slice(prefix.length)
          if (/^[0-9a-f]{64}$/.test(sha256)) objects.push({ sha256, modified: o.LastModified ?? new Date() })
        }
        yield objects
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (ContinuationToken)
    },
    async modified(sha256) {
      try {
        return (await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: Key(sha256) }))).LastModified ?? null
      } catch (err) {
        if (isMissing(err)) return null
        throw err
      }
    },
    async delete(sha256s) {
      for (let i = 0; i < sha256s.length; i += 1000) {
        const Objects = sha256s.slice(i, i + 1000).map((h) => ({ Key: Key(h) }))
        await s3.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects, Quiet: true } }))
      }
    },
    async check() {
      await s3.send(new HeadBucketCommand({ Bucket: bucket }))
    },
    close() {
      s3.destroy()
    },
  }
}
