/**
 * An RFC 3161 client: asks timestamp servers, in the order given, for a token over a digest. The
 * token is checked to be over that digest and to answer this request (its nonce) before it is used.
 */
import { randomBytes } from 'node:crypto'
import { parseSignedData } from './cms.js'
import { algorithm, bool, bytesOf, childrenOf, fromDer, int, octets, OID, oidOf, seq, timeOf, toDer, uint } from './der.js'

export interface TimestampOptions {
  /** Per server. Default 10 s. */
  timeoutMs?: number
}

/** The largest answer read from a timestamp server; a token is a few kilobytes. */
const MAX_RESPONSE_BYTES = 1024 * 1024

/** A TimeStampToken (DER ContentInfo) over `digest` (SHA-256), from the first server that gives one. */
export async function requestTimestamp(digest: Buffer, urls: readonly string[], options: TimestampOptions = {}): Promise<Buffer> {
  if (!urls.length) throw new Error('no timestamp server is configured')
  const failures: string[] = []
  for (const url of urls) {
    try {
      return await askServer(url, digest, options.timeoutMs ?? 10_000)
    } catch (err) {
      failures.push(`${url}: ${(err as Error).message}`)
    }
  }
  throw new Error(`no timestamp server gave a token (${failures.join('; ')})`)
}

async function askServer(url: string, digest: Buffer, timeoutMs: number): Promise<Buffer> {
  const nonce = randomBytes(8)
  nonce[0]! &= 0x7f
  const request = toDer(seq(int(1), seq(algorithm(OID.sha256), octets(digest)), uint(nonce), bool(true)))
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' },
    body: new Uint8Array(request),
    signal: AbortSignal.timeout(timeoutMs),
    redirect: 'error',
  })
  if (!res.ok) throw new Error(`HTTP ${res.status}`)
  const length = Number(res.headers.get('content-length') ?? 0)
  if (length > MAX_RESPONSE_BYTES) throw new Error('the answer is too large')
  const body = Buffer.from(await res.arrayBuffer())
  if (body.length > MAX_RESPONSE_BYTES) throw new Error('the answer is too large')
  return tokenFrom(body, digest, nonce)
}

/** The token of a TimeStampResp, after checking its status, digest and nonce. */
export function tokenFrom(response: Buffer, digest: Buffer, nonce: Buffer): Buffer {
  const [statusInfo, token] = childrenOf(fromDer(response))
  const status = bytesOf(childrenOf(statusInfo)[0]!).readUIntBE(0, 1)
  // 0 granted, 1 granted with modifications; anything else is a refusal.
  if (status > 1 || !token) throw new Error(`the server refused (PKIStatus ${status})`)
  const der = toDer(token)
  const info = readTimestampToken(der)
  if (!info.digest.equals(digest)) throw new Error('the token is over another digest')
  if (!info.nonce || !stripZeros(info.nonce).equals(stripZeros(nonce))) throw new Error('the token does not answer this request (nonce)')
  return der
}

export interface TimestampInfo {
  /** The digest the token certifies (its messageImprint). */
  digest: Buffer
  digestAlgorithm: string | undefined
  time: Date
  nonce: Buffer | undefined
  serial: Buffer
  /** The token's own SignedData (signature, TSA certificates). */
  certificates: Buffer[]
}

/** The TSTInfo of a TimeStampToken. */
export function readTimestampToken(token: Uint8Array): TimestampInfo {
  const signed = parseSignedData(token)
  if (signed.contentType !== OID.tstInfo || !signed.content) throw new Error('not a timestamp token')
  const fields = childrenOf(fromDer(signed.content))
  const imprint = childrenOf(fields[2])
  const time = timeOf(fields[4])
  if (!time) throw new Error('the timestamp token has no time')
  // After genTime: accuracy (SEQUENCE), ordering (BOOLEAN), then the nonce (the first INTEGER).
  const nonceNode = fields.slice(5).find((f) => f.tagClass === 0 && f.type === 2)
  return {
    digest: bytesOf(imprint[1]!),
    digestAlgorithm: oidOf(childrenOf(imprint[0])[0]),
    time,
    nonce: nonceNode ? bytesOf(nonceNode) : undefined,
    serial: bytesOf(fields[3]!),
    certificates: signed.certificates,
  }
}

const stripZeros = (b: Buffer) => {
  let i = 0
  while (i < b.length - 1 && b[i] === 0) i++
  return b.subarray(i)
}
