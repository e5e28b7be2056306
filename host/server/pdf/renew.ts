/**
 * Archives that stay valid: a B-LTA file is verifiable only while its last document timestamp is,
 * that is while the timestamp authority's certificate is valid and its digest is not retired.
 * Before then one more incremental update is appended (long-term.ts): the validation data of the
 * last timestamp (its authority's chain and CRLs, merged into the DSS with what is there) and a
 * new document timestamp over the whole file. The bytes before stay exactly as they were, so every
 * earlier signature and timestamp still covers its revision.
 */
import { PDFDocument } from '@cantoo/pdf-lib'
import type { DigestName } from '../config.js'
import { parseSignedData } from './cms.js'
import { withInflateBudget } from './inflate-budget.js'
import { appendLongTermValidation } from './long-term.js'
import { TIMESTAMP_BUDGET } from './pades.js'
import { collectValidationData } from './revocation.js'
import { readTimestampToken, requestTimestamp } from './tsa.js'
import { signerCertificate, verifyPdfSignatures } from './verify.js'
import { runHeavy } from '../workers/heavy.js'

/** The digest algorithms by name, as ARCHIVE_RETIRED_DIGESTS names them. */
export const DIGEST_OIDS: Record<DigestName, string> = {
  md5: '1.2.840.113549.2.5',
  sha1: '1.3.14.3.2.26',
  sha224: '2.16.840.1.101.3.4.2.4',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha384: '2.16.840.1.101.3.4.2.2',
  sha512: '2.16.840.1.101.3.4.2.3',
}

/** What decides when a B-LTA file needs a new timestamp: its last document timestamp. */
export interface ArchiveFacts {
  /** When the last document timestamp was made (its token's time). */
  timestampAt: Date
  /** The end of its authority's certificate. */
  tsaValidTo: Date
  /** Its digest algorithms (the token's message imprint, and its signature's), by name where known, else by OID. */
  digests: string[]
}

/** Longest a renewal may take (CRLs and timestamp servers included) before its thread is stopped. */
const RENEW_TIMEOUT_MS = 120_000
const failed = (what: string) => (why: string) => new Error(`${what} failed: ${why}`)

/**
 * The facts of a B-LTA file (a PAdES seal at level B-LTA, and an intact document timestamp that
 * ends the file); null for any other file (nothing to keep valid, or nothing this can renew).
 * Runs in a heavy-work thread (workers/heavy.ts).
 */
export function archiveFacts(bytes: Uint8Array): Promise<ArchiveFacts | null> {
  return runHeavy('archiveFacts', { bytes }, { failure: failed('reading the timestamps') })
}

/** archiveFacts's work, in this thread. */
export async function archiveFactsHere(bytes: Uint8Array): Promise<ArchiveFacts | null> {
  const reports = await verifyPdfSignatures(bytes)
  const last = reports.at(-1)
  if (!reports.some((r) => r.level === 'B-LTA') || last?.kind !== 'document-timestamp' || !last.intact || !last.coversWholeDocument) return null
  const token = lastTimestampToken(bytes)
  const info = readTimestampToken(token)
  const signed = parseSignedData(token)
  const authority = signerCertificate(signed)
  if (!authority) return null
  const byOid = new Map(Object.entries(DIGEST_OIDS).map(([name, oid]) => [oid, name]))
  const digests = [...new Set([info.digestAlgorithm, signed.signer.digestAlgorithm].filter((d): d is string => !!d))]
  return { timestampAt: info.time, tsaValidTo: new Date(authority.validTo), digests: digests.map((d) => byOid.get(d) ?? d) }
}

/** Whether the file is due for a new timestamp at `now`: its authority's certificate ends within `renewDays`, or a digest is retired. */
export function renewalDue(facts: ArchiveFacts, now: Date, settings: { renewDays: number; retiredDigests: readonly string[] }): Date {
  const byExpiry = new Date(facts.tsaValidTo.getTime() - settings.renewDays * 24 * 3600_000)
  return facts.digests.some((d) => settings.retiredDigests.includes(d)) ? new Date(Math.min(now.getTime(), byExpiry.getTime())) : byExpiry
}

export interface RenewOptions {
  /** RFC 3161 timestamp servers, tried in order (SEALING_TSA_URLS). */
  tsaUrls: string[]
  /** Per timestamp server and per CRL download. Default 10 s. */
  timeoutMs?: number
}

/**
 * `bytes` (a B-LTA file) with one more incremental update: the last timestamp's validation data and
 * a new document timestamp. Throws when its authority's CRLs cannot be had or name it revoked, or
 * when no timestamp server gives a token (the job tries again later). Runs in a heavy-work thread.
 */
export function renewArchive(bytes: Uint8Array, options: RenewOptions): Promise<Uint8Array> {
  return runHeavy('renewArchive', { bytes, options }, { failure: failed('renewing the archive'), timeoutMs: RENEW_TIMEOUT_MS })
}

/** renewArchive's work, in this thread. */
export async function renewArchiveHere(bytes: Uint8Array, options: RenewOptions): Promise<Uint8Array> {
  const token = lastTimestampToken(bytes)
  const data = await collectValidationData([parseSignedData(token).certificates], { timeoutMs: options.timeoutMs })
  const doc = await withInflateBudget(() => PDFDocument.load(bytes, { updateMetadata: false }))
  const copy = Buffer.from(bytes)
  return appendLongTermValidation(doc, copy, data, (digest) => requestTimestamp(digest, options.tsaUrls, { timeoutMs: options.timeoutMs }), TIMESTAMP_BUDGET)
}

/** Whether `next` is `previous` with bytes appended: what a renewal must be. */
export function extendsFile(previous: Uint8Array, next: Uint8Array): boolean {
  return next.byteLength > previous.byteLength && Buffer.from(previous).equals(Buffer.from(next.buffer, next.byteOffset, previous.byteLength))
}

/** The token (DER) of the signature whose byte range ends the file: the last document timestamp. */
function lastTimestampToken(bytes: Uint8Array): Buffer {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const text = buffer.toString('latin1')
  for (const m of [...text.matchAll(/\/ByteRange\s*\[\s*0\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)].reverse()) {
    const [length1, start2, length2] = m.slice(1, 4).map(Number) as [number, number, number]
    if (start2 + length2 !== buffer.length) continue
    const hex = /^<([0-9a-fA-F]*)>$/.exec(text.slice(length1, start2))?.[1]
    if (hex) return stripPadding(Buffer.from(hex, 'hex'))
  }
  throw new Error('the file ends with no document timestamp')
}

/** The DER value without the zeros that fill the rest of /Contents. */
function stripPadding(der: Buffer): Buffer {
  if (der[0] !== 0x30) return der
  const first = der[1]!
  if (first < 0x80) return der.subarray(0, 2 + first)
  const n = first & 0x7f
  return der.subarray(0, 2 + n + der.readUIntBE(2, n))
}
