/**
 * A real S3 protocol server (s3rver) on loopback, with one bucket, for the host's object storage
 * tests; files go to a temporary directory removed on close.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { S3Client } from '@aws-sdk/client-s3'
import S3rver from 's3rver'

export interface S3Server {
  endpoint: string
  bucket: string
  /** A client of the bucket, to look at and tamper with what the host stored. */
  client: S3Client
  /** STORAGE_URL for files under `prefix`. */
  storageUrl(prefix: string): string
  close(): Promise<void>
}

export async function startS3Server(bucket = 'files'): Promise<S3Server> {
  const directory = await mkdtemp(path.join(tmpdir(), 's3rver-'))
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] })
  const { port } = await server.run()
  const endpoint = `http://127.0.0.1:${port}`
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } })
  let closed = false
  return {
    endpoint,
    bucket,
    client,
    storageUrl: (prefix) => `s3://S3RVER:S3RVER@${bucket}/${prefix}?endpoint=${encodeURIComponent(endpoint)}&path-style=1`,
    async close() {
      if (closed) return
      closed = true
      client.destroy()
      await server.close()
      await rm(directory, { recursive: true, force: true })
    },
  }
}
