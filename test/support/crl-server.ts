/**
 * A CA's CRL distribution point on loopback, in process: serves a CRL (RFC 5280, v2) signed by the
 * test CA, listing the serial numbers revoked so far (checked independently by `openssl crl` in the
 * tests). Start it before issuing certificates, so they can name its URL.
 */
import { createPrivateKey, sign } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import forge from 'node-forge'
import { algorithm, int, octets, oid, OID, seq, tagged, toDer, uint, utcTime } from '../../host/server/pdf/der.js'
import type { TestCa } from './test-pki.js'

export interface CrlServer {
  url: string
  /** Lists this serial number (hex, as X509Certificate.serialNumber gives it) from now on. */
  revoke(serialHex: string): void
  /** Answers 503 from now on (true) or the CRL again (false). */
  down(value: boolean): void
  /** CRLs served so far. */
  count: () => number
  /** The CRL as served now (DER). */
  crl(): Buffer
  close: () => Promise<void>
}

export async function startCrlServer(ca: Pick<TestCa, 'certificatePem' | 'privateKeyPem'>): Promise<CrlServer> {
  const revoked: string[] = []
  let unavailable = false
  let served = 0
  let number = 1
  const crl = () => makeCrl(ca, revoked, number++)
  const server: Server = createServer((req, res) => {
    if (unavailable) return res.writeHead(503).end()
    served++
    res.writeHead(200, { 'content-type': 'application/pkix-crl' }).end(crl())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/root.crl`,
    revoke: (serial) => void revoked.push(serial),
    down: (value) => void (unavailable = value),
    count: () => served,
    crl,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

function makeCrl(ca: Pick<TestCa, 'certificatePem' | 'privateKeyPem'>, revoked: string[], crlNumber: number): Buffer {
  const issuer = forge.pki.distinguishedNameToAsn1(forge.pki.certificateFromPem(ca.certificatePem).subject)
  const now = new Date()
  const tbs = seq(
    int(1), // v2
    algorithm(OID.sha256WithRsa),
    issuer,
    utcTime(new Date(now.getTime() - 60_000)),
    utcTime(new Date(now.getTime() + 7 * 24 * 3600_000)),
    ...(revoked.length ? [seq(...revoked.map((serial) => seq(uint(Buffer.from(serial, 'hex')), utcTime(now))))] : []),
    tagged(0, seq(seq(oid('2.5.29.20'), octets(toDer(int(crlNumber)))))), // cRLNumber
  )
  const signature = sign('sha256', toDer(tbs), createPrivateKey(ca.privateKeyPem))
  const bits = forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.BITSTRING, false, '\x00' + signature.toString('binary'))
  return toDer(seq(tbs, algorithm(OID.sha256WithRsa), bits))
}
