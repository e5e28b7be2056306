/**
 * JSON Web Signatures (RFC 7515, compact serialisation) with the sealing key: RS256 for an RSA
 * key, ES256 for a P-256 key, the certificate chain in the `x5c` header (base64 DER, the signer's
 * first). node:crypto only.
 */
import { sign, verify, X509Certificate, type KeyObject } from 'node:crypto'
import { openSealingKey, type SealingKey } from './sealing-key.js'

const b64url = (bytes: Buffer | string): string => Buffer.from(bytes).toString('base64url')

function algorithmOf(key: KeyObject): 'RS256' | 'ES256' {
  if (key.asymmetricKeyType === 'rsa') return 'RS256'
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ES256'
  throw new Error(`the sealing key (${key.asymmetricKeyType} ${key.asymmetricKeyDetails?.namedCurve ?? ''}) cannot sign a JWS: use RSA or EC P-256`)
}

const options = (alg: 'RS256' | 'ES256', key: KeyObject) => (alg === 'ES256' ? { key, dsaEncoding: 'ieee-p1363' as const } : key)

/** `payload` signed with the sealing key, as a compact JWS (header.payload.signature). */
export function signJws(payload: unknown, sealingKey: SealingKey): string {
  const { signingKey, certificates } = openSealingKey(sealingKey)
  const alg = algorithmOf(signingKey)
  const header = { alg, typ: 'JOSE', cty: 'application/json', x5c: certificates.map((c) => c.toString('base64')) }
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`
  return `${input}.${b64url(sign('sha256', Buffer.from(input), options(alg, signingKey)))}`
}

export type CheckedJws =
  | { ok: true; payload: unknown; certificate: X509Certificate; fingerprint: string }
  | { ok: false; reason: string; fingerprint?: string }

/** A header holds the algorithm and a certificate chain: a few kilobytes. */
export const MAX_JWS_HEADER = 64 * 1024

/**
 * Checks a compact JWS: its form, that (by SHA-256 fingerprint, as X509Certificate.fingerprint256)
 * its `x5c` certificate is one of `trusted`, and that its signature is that certificate's key's.
 * The payload is parsed last, only once its signature holds: a stranger's payload is never parsed.
 */
export function checkJws(jws: string, trusted: readonly string[]): CheckedJws {
  const parts = jws.trim().split('.', 4)
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]*$/.test(p))) return { ok: false, reason: 'not a compact JWS' }
  const [h, p, s] = parts as [string, string, string]
  if (h.length > MAX_JWS_HEADER) return { ok: false, reason: 'its header is too large' }
  let header: { alg?: unknown; x5c?: unknown }
  try {
    header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8'))
  } catch {
    return { ok: false, reason: 'its header is not JSON' }
  }
  if (header === null || typeof header !== 'object') return { ok: false, reason: 'its header is not JSON' }
  if (header.alg !== 'RS256' && header.alg !== 'ES256') return { ok: false, reason: `unsupported algorithm ${String(header.alg).slice(0, 20)}` }
  const first = Array.isArray(header.x5c) ? header.x5c[0] : undefined
  if (typeof first !== 'string') return { ok: false, reason: 'no certificate (x5c) in its header' }
  let certificate: X509Certificate
  try {
    certificate = new X509Certificate(Buffer.from(first, 'base64'))
  } catch {
    return { ok: false, reason: 'its certificate (x5c) cannot be read' }
  }
  const fingerprint = certificate.fingerprint256
  if (!trusted.includes(fingerprint)) return { ok: false, reason: "it is not signed with this service's sealing certificate", fingerprint }
  const key = certificate.publicKey
  const expected = key.asymmetricKeyType === 'rsa' ? 'RS256' : 'ES256'
  let holds = false
  try {
    holds = header.alg === expected && verify('sha256', Buffer.from(`${h}.${p}`), options(expected, key), Buffer.from(s, 'base64url'))
  } catch {
    holds = false
  }
  if (!holds) return { ok: false, reason: 'the signature does not hold', fingerprint }
  let payload: unknown
  try {
    payload = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'))
  } catch {
    return { ok: false, reason: 'its payload is not JSON', fingerprint }
  }
  return { ok: true, payload, certificate, fingerprint }
}
