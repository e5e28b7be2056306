/**
 * An RFC 3161 timestamp server on loopback, in process, with its own certificate from a test CA:
 * answers application/timestamp-query POSTs with a token signed by the same CMS code the host uses
 * (checked independently by `openssl ts -verify` in the tests).
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { buildSignedData, sha256 } from '../../host/server/pdf/cms.js'
import { bytesOf, childrenOf, fromDer, generalizedTime, int, oid, OID, seq, toDer, uint } from '../../host/server/pdf/der.js'
import { signingCertificateV2 } from '../../host/server/pdf/pades.js'
import type { SealingKey } from '../../host/server/pdf/sealing-key.js'
import { localSigner } from '../../host/server/pdf/signer.js'
import type { Issued } from './test-pki.js'

export interface TsaServer {
  url: string
  /** Requests answered so far. */
  count: () => number
  close: () => Promise<void>
}

const POLICY = '1.3.6.1.4.1.99999.1.1'

/** `refuse`: answer every request with PKIStatus 2 (rejection), to test falling back to the next server. */
export async function startTsa(tsa: Issued, options: { refuse?: boolean } = {}): Promise<TsaServer> {
  const key: SealingKey = { privateKeyPem: tsa.privateKeyPem, passphrase: '', chainPem: tsa.chainPem, certificatePem: tsa.certificatePem, source: 'pem' }
  const signer = localSigner(key)
  let serial = 1
  let answered = 0
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      void (async () => {
        try {
          if (req.method !== 'POST' || req.headers['content-type'] !== 'application/timestamp-query') throw new Error('not a timestamp query')
          const fields = childrenOf(fromDer(Buffer.concat(chunks)))
          const imprint = fields[1]!
          const nonce = fields.slice(2).find((f) => f.tagClass === 0 && f.type === 2)
          const status = seq(int(options.refuse ? 2 : 0))
          let body: Buffer
          if (options.refuse) body = toDer(seq(status))
          else {
            const tstInfo = toDer(
              seq(
                int(1),
                oid(POLICY),
                imprint,
                int(serial++),
                generalizedTime(new Date()),
                seq(int(1)), // accuracy: one second
                ...(nonce ? [uint(bytesOf(nonce))] : []),
              ),
            )
            const [own] = await signer.certificates()
            const token = await buildSignedData({ signer, contentType: OID.tstInfo, content: tstInfo, digest: sha256(tstInfo), attributes: [signingCertificateV2(own!)] })
            body = toDer(seq(status, fromDer(token)))
          }
          answered++
          res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(body)
        } catch (err) {
          res.writeHead(400).end((err as Error).message)
        }
      })()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/tsa`,
    count: () => answered,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

