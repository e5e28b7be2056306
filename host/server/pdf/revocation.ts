/**
 * Revocation data for long-term validation (PAdES B-LT): for each certificate of a seal's chains
 * that names a CRL distribution point, its issuer's current CRL, fetched, checked to be signed by
 * that issuer, and checked not to list the certificate. The CRLs and the certificates go into the
 * PDF's DSS dictionary (long-term.ts), so a reader can still validate the seal after the
 * certificates expire or the CA's servers are gone.
 */
import { verify as verifySignature, X509Certificate } from 'node:crypto'
import { bytesOf, childrenOf, fromDer, isContext, oidOf, timeOf, toDer, type Asn1 } from './der.js'

export interface ValidationData {
  /** Every certificate of the chains, once each (DER). */
  certificates: Buffer[]
  /** One CRL per issuer whose certificates name a distribution point (DER). */
  crls: Buffer[]
}

export interface RevocationOptions {
  /** Per CRL download. Default 10 s. */
  timeoutMs?: number
}

/** The largest CRL read; a busy public CA's CRL is a few megabytes. */
const MAX_CRL_BYTES = 8 * 1024 * 1024
const CRL_DISTRIBUTION_POINTS = '2.5.29.31'

/**
 * The validation data of these chains (each a certificate, then its issuers). Throws when a
 * certificate is revoked, or when a CRL it names cannot be had or does not check out.
 */
export async function collectValidationData(chains: Buffer[][], options: RevocationOptions = {}): Promise<ValidationData> {
  const pool = unique(chains.flat()).map((der) => ({ der, cert: new X509Certificate(der) }))
  const crls = new Map<string, Buffer>() // by URL: one download per distribution point
  for (const { cert } of pool) {
    const urls = crlUrlsOf(cert.raw)
    // A root is trusted as it is: nobody above it could revoke it.
    if (!urls.length || (cert.checkIssued(cert) && cert.verify(cert.publicKey))) continue
    const issuer = pool.find((c) => c.cert !== cert && cert.checkIssued(c.cert) && cert.verify(c.cert.publicKey))?.cert
    if (!issuer) throw new Error(`the issuer of "${cert.subject.replace(/\n/g, ', ')}" is not in its chain`)
    const failures: string[] = []
    let crl: Crl | undefined
    for (const url of urls) {
      try {
        crl = crls.has(url) ? readCrl(crls.get(url)!) : await fetchCrl(url, options.timeoutMs ?? 10_000)
        checkCrl(crl, issuer)
        crls.set(url, crl.der)
        break
      } catch (err) {
        failures.push(`${url}: ${(err as Error).message}`)
        crl = undefined
      }
    }
    if (!crl) throw new Error(`no CRL could be had for "${commonName(cert)}" (${failures.join('; ')})`)
    if (crl.revoked.has(serialKey(cert.serialNumber))) throw new Error(`the certificate "${commonName(cert)}" is revoked`)
  }
  return { certificates: pool.map((c) => c.der), crls: unique([...crls.values()]) }
}

/** The http(s) URLs of a DER certificate's CRL distribution points. */
export function crlUrlsOf(certificate: Buffer): string[] {
  const tbs = childrenOf(childrenOf(fromDer(certificate))[0])
  const extensions = tbs.find((n) => isContext(n, 3))
  for (const extension of childrenOf(childrenOf(extensions)[0])) {
    const [id, ...rest] = childrenOf(extension)
    if (oidOf(id) !== CRL_DISTRIBUTION_POINTS) continue
    const value = fromDer(bytesOf(rest.at(-1)!))
    return uris(value).filter((u) => /^https?:\/\//i.test(u))
  }
  return []
}

/** Every uniformResourceIdentifier ([6] IA5String) in a GeneralNames structure, at any depth. */
function uris(node: Asn1): string[] {
  if (isContext(node, 6) && !node.constructed) return [bytesOf(node).toString('latin1')]
  return childrenOf(node).flatMap(uris)
}

interface Crl {
  der: Buffer
  tbs: Buffer
  signature: Buffer
  issuer: Buffer
  nextUpdate: Date | undefined
  /** Revoked serial numbers, upper-case hex without leading zeros. */
  revoked: Set<string>
}

/** A DER CertificateList (RFC 5280 5.1): what is needed to check it and read it. */
export function readCrl(der: Buffer): Crl {
  const [tbsNode, , signatureNode] = childrenOf(fromDer(der))
  if (!tbsNode || !signatureNode) throw new Error('not a CRL')
  const fields = childrenOf(tbsNode)
  let at = fields[0]?.type === 2 && fields[0].tagClass === 0 ? 1 : 0 // version, v2 only
  at++ // signature algorithm
  const issuer = fields[at++]!
  at++ // thisUpdate
  const nextUpdate = timeOf(fields[at])
  if (nextUpdate) at++
  const revoked = new Set<string>()
  const list = fields[at]
  if (list && !isContext(list, 0)) {
    for (const entry of childrenOf(list)) revoked.add(serialKey(bytesOf(childrenOf(entry)[0]!).toString('hex')))
  }
  // A BIT STRING's first byte counts its unused bits.
  return { der, tbs: toDer(tbsNode), signature: bytesOf(signatureNode).subarray(1), issuer: toDer(issuer), nextUpdate, revoked }
}

function checkCrl(crl: Crl, issuer: X509Certificate): void {
  if (!crl.issuer.equals(subjectOf(issuer.raw))) throw new Error('the CRL is issued by another name')
  let ok = false
  try {
    ok = verifySignature('sha256', crl.tbs, issuer.publicKey, crl.signature)
  } catch {
    ok = false
  }
  if (!ok) throw new Error('the CRL is not signed by the issuer')
  if (crl.nextUpdate && crl.nextUpdate.getTime() < Date.now()) throw new Error('the CRL is out of date')
}

async function fetchCrl(url: string, timeoutMs: number): Promise<Crl> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' })
  if (!res.ok) throw new Error(`HTTP ${res.status}`)
  if (Number(res.headers.get('content-length') ?? 0) > MAX_CRL_BYTES) throw new Error('the CRL is too large')
  const body = Buffer.from(await res.arrayBuffer())
  if (body.length > MAX_CRL_BYTES) throw new Error('the CRL is too large')
  return readCrl(body)
}

/** The subject Name of a DER certificate, as DER. */
function subjectOf(certificate: Buffer): Buffer {
  const tbs = childrenOf(childrenOf(fromDer(certificate))[0])
  const at = isContext(tbs[0], 0) ? 1 : 0
  return toDer(tbs[at + 4]!)
}

const serialKey = (hex: string) => hex.replace(/^(00)+/, '').toUpperCase()
const commonName = (c: X509Certificate) => /CN=([^\n]*)/.exec(c.subject)?.[1] ?? c.subject
const unique = (items: Buffer[]) => items.filter((b, i) => items.findIndex((o) => o.equals(b)) === i)
