/**
 * Checking an evidence summary (the JWS of GET /envelope/{id}/evidence?format=jws) with
 * WebCrypto alone, so it runs on Node 18+ and on edge runtimes: the signature (RS256 or ES256) must
 * be the key's of the certificate in its `x5c` header, and, when `certificate` is given (the host's
 * sealing certificate, PEM or DER, or its SHA-256 fingerprint), that certificate must be this one.
 * Without `certificate` a valid answer only says who signed: compare `certificate.fingerprint`
 * with the host's before trusting the evidence.
 */
import { EVIDENCE_VERSION, type Evidence } from '../protocol/evidence.js'

export type { Evidence, EvidenceConsent, EvidenceDocument, EvidenceProof, EvidenceRecipient, EvidenceSeal, EvidenceStep } from '../protocol/evidence.js'

export interface VerifyEvidenceOptions {
  /** The certificate the evidence must be signed with: PEM, DER bytes, or its SHA-256 fingerprint (hex, colons optional). */
  certificate?: string | Uint8Array | ArrayBuffer
}

export interface VerifiedEvidence {
  valid: boolean
  /** The summary, when the signature holds. */
  evidence: Evidence | null
  /** The signing certificate: its subject (e.g. `CN=...`) and SHA-256 fingerprint (colon-separated upper-case hex). */
  certificate: { subject: string; fingerprint: string } | null
  /** Why it is not valid. */
  reason?: string
}

/** Checks an evidence JWS; never throws for a bad file (valid: false with a reason). */
export async function verifyEvidence(jws: string, options: VerifyEvidenceOptions = {}): Promise<VerifiedEvidence> {
  const fail = (reason: string, certificate: VerifiedEvidence['certificate'] = null): VerifiedEvidence => ({ valid: false, evidence: null, certificate, reason })
  const parts = String(jws).trim().split('.')
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]*$/.test(p))) return fail('not a compact JWS')
  const [h, p, s] = parts as [string, string, string]
  let header: { alg?: unknown; x5c?: unknown }
  let payload: unknown
  try {
    header = JSON.parse(utf8(fromBase64Url(h)))
    payload = JSON.parse(utf8(fromBase64Url(p)))
  } catch {
    return fail('its header or payload is not JSON')
  }
  if (header.alg !== 'RS256' && header.alg !== 'ES256') return fail(`unsupported algorithm ${String(header.alg)}`)
  const x5c = Array.isArray(header.x5c) && typeof header.x5c[0] === 'string' ? header.x5c[0] : null
  let der: Uint8Array
  let pinned: string | null = null
  try {
    const given = options.certificate === undefined ? null : certificateInput(options.certificate)
    if (typeof given === 'string') pinned = given
    if (x5c !== null) der = fromBase64(x5c)
    else if (given instanceof Uint8Array) der = given
    else return fail('no certificate (x5c) in its header')
    if (given instanceof Uint8Array) pinned = await fingerprintOf(given)
  } catch (err) {
    return fail((err as Error).message)
  }
  let cert: ParsedCertificate
  try {
    cert = parseCertificate(der)
  } catch {
    return fail('its certificate cannot be read')
  }
  const certificate = { subject: cert.subject, fingerprint: await fingerprintOf(der) }
  let holds = false
  try {
    holds = await checkSignature(header.alg, cert, bytesOf(`${h}.${p}`), fromBase64Url(s))
  } catch {
    holds = false
  }
  if (!holds) return fail('the signature does not hold', certificate)
  if (pinned !== null && pinned !== certificate.fingerprint) return fail('it is not signed with the expected certificate', certificate)
  const evidence = payload as Evidence
  if (!evidence || typeof evidence !== 'object' || evidence.version !== EVIDENCE_VERSION) return fail(`not an evidence summary (${EVIDENCE_VERSION})`, certificate)
  return { valid: true, evidence, certificate }
}

// ---- certificates

/** A fingerprint string (normalised), or the DER of a PEM or DER certificate. */
function certificateInput(c: string | Uint8Array | ArrayBuffer): string | Uint8Array {
  if (c instanceof ArrayBuffer) return new Uint8Array(c)
  if (c instanceof Uint8Array) return c
  const pem = /-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/.exec(c)
  if (pem) return fromBase64(pem[1]!.replace(/\s+/g, ''))
  const hex = c.replace(/[\s:]/g, '').toUpperCase()
  if (/^[0-9A-F]{64}$/.test(hex)) return hex.match(/../g)!.join(':')
  throw new Error('options.certificate is neither a PEM or DER certificate nor a SHA-256 fingerprint')
}

async function fingerprintOf(der: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', der as BufferSource))
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':')
}

interface ParsedCertificate {
  subject: string
  /** SubjectPublicKeyInfo (DER), as WebCrypto imports it. */
  spki: Uint8Array
  keyAlgorithm: string
  curve: string | null
}

interface Node {
  tag: number
  /** The whole element (tag, length and content). */
  start: number
  /** Content start and end. */
  from: number
  end: number
}

function readNode(der: Uint8Array, at: number): Node {
  const tag = der[at]!
  let len = der[at + 1]!
  let from = at + 2
  if (len & 0x80) {
    const n = len & 0x7f
    if (n < 1 || n > 4) throw new Error('bad DER length')
    len = 0
    for (let i = 0; i < n; i++) len = len * 256 + der[from + i]!
    from += n
  }
  const end = from + len
  if (end > der.length) throw new Error('truncated DER')
  return { tag, start: at, from, end }
}

function children(der: Uint8Array, node: Node): Node[] {
  const out: Node[] = []
  for (let at = node.from; at < node.end; ) {
    const child = readNode(der, at)
    out.push(child)
    at = child.end
  }
  return out
}

function oidOf(der: Uint8Array, node: Node): string {
  const bytes = der.subarray(node.from, node.end)
  const parts: number[] = [Math.floor(bytes[0]! / 40), bytes[0]! % 40]
  let value = 0
  for (const b of bytes.subarray(1)) {
    value = value * 128 + (b & 0x7f)
    if (!(b & 0x80)) {
      parts.push(value)
      value = 0
    }
  }
  return parts.join('.')
}

const NAMES: Record<string, string> = {
  '2.5.4.3': 'CN', '2.5.4.5': 'serialNumber', '2.5.4.6': 'C', '2.5.4.7': 'L', '2.5.4.8': 'ST', '2.5.4.10': 'O', '2.5.4.11': 'OU',
  '1.2.840.113549.1.9.1': 'emailAddress',
}

function stringOf(der: Uint8Array, node: Node): string {
  const bytes = der.subarray(node.from, node.end)
  if (node.tag === 0x1e) {
    let out = ''
    for (let i = 0; i + 1 < bytes.length; i += 2) out += String.fromCharCode((bytes[i]! << 8) | bytes[i + 1]!)
    return out
  }
  if (node.tag === 0x14) return Array.from(bytes, (b) => String.fromCharCode(b)).join('')
  return utf8(bytes)
}

function nameOf(der: Uint8Array, name: Node): string {
  return children(der, name)
    .flatMap((set) => children(der, set))
    .map((pair) => {
      const [type, value] = children(der, pair)
      const oid = oidOf(der, type!)
      return `${NAMES[oid] ?? oid}=${stringOf(der, value!)}`
    })
    .join(', ')
}

function parseCertificate(der: Uint8Array): ParsedCertificate {
  const root = readNode(der, 0)
  const tbs = children(der, children(der, root)[0]!)
  const fields = tbs[0]!.tag === 0xa0 ? tbs.slice(1) : tbs
  const [, , , , subject, spki] = fields // serial, signature, issuer, validity, subject, subjectPublicKeyInfo
  const [algorithm] = children(der, spki!)
  const [keyOid, params] = children(der, algorithm!)
  return {
    subject: nameOf(der, subject!),
    spki: der.slice(spki!.start, spki!.end),
    keyAlgorithm: oidOf(der, keyOid!),
    curve: params && params.tag === 0x06 ? oidOf(der, params) : null,
  }
}

const RSA = '1.2.840.113549.1.1.1'
const EC = '1.2.840.10045.2.1'
const P256 = '1.2.840.10045.3.1.7'

async function checkSignature(alg: 'RS256' | 'ES256', cert: ParsedCertificate, data: Uint8Array, signature: Uint8Array): Promise<boolean> {
  const spki = cert.spki as BufferSource
  if (alg === 'RS256') {
    if (cert.keyAlgorithm !== RSA) return false
    const key = await crypto.subtle.importKey('spki', spki, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['verify'])
    return crypto.subtle.verify('RSASSA-PKCS1-v1_5', key, signature as BufferSource, data as BufferSource)
  }
  if (cert.keyAlgorithm !== EC || cert.curve !== P256) return false
  const key = await crypto.subtle.importKey('spki', spki, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify'])
  return crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, signature as BufferSource, data as BufferSource)
}

// ---- bytes

const bytesOf = (text: string): Uint8Array => new TextEncoder().encode(text)
const utf8 = (bytes: Uint8Array): string => new TextDecoder('utf-8', { fatal: true }).decode(bytes)

function fromBase64(b64: string): Uint8Array {
  const binary = atob(b64)
  const out = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i)
  return out
}

function fromBase64Url(b64url: string): Uint8Array {
  const b64 = b64url.replace(/-/g, '+').replace(/_/g, '/')
  return fromBase64(b64 + '='.repeat((4 - (b64.length % 4)) % 4))
}
