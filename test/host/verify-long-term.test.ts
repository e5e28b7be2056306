/**
 * A host with a CA-issued sealing certificate that names a CRL and a timestamp server: completed
 * documents are sealed B-LTA (DSS with the chains' CRLs, a document timestamp), and POST /verify
 * recognises them; an editor's page added afterwards is reported as a change.
 * Database: the embedded one (PDFs). A host of its own: its sealing key comes from process.env.
 */
import { X509Certificate } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sealEnvelope } from '../../host/server/pdf/seal.js'
import { generateP12, openSealingKey, type SealingKey } from '../../host/server/pdf/sealing-key.js'
import { startCrlServer, type CrlServer } from '../support/crl-server.js'
import { addPageIncrementally, hiddenChanges } from '../support/incremental.js'
import { hasTool, pdfsig } from '../support/outside-checks.js'
import { makeTestCa } from '../support/test-pki.js'
import { startTsa, type TsaServer } from '../support/tsa-server.js'
import { api, completeOneSigner, makePdf, startTestHost, type Api, type TestHost } from './support.js'

const HAS_PDFSIG = hasTool('pdfsig')

describe('B-LTA seals on pglite', () => {
  let host: TestHost
  let client: Api
  let tsa: TsaServer
  let crls: CrlServer[]
  let dir: string
  let earlier: Buffer
  const saved = { cert: process.env.SEALING_CERT_FILE, key: process.env.SEALING_KEY_FILE }

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'lta-host-'))
    const ca = makeTestCa('lta test root')
    const tsaCa = makeTestCa('lta test timestamp root')
    crls = [await startCrlServer(ca), await startCrlServer(tsaCa)]
    const seal = ca.issue('lta test seal', 'seal', { crlUrl: crls[0]!.url })
    await writeFile(path.join(dir, 'seal.pem'), seal.chainPem)
    await writeFile(path.join(dir, 'seal.key'), seal.privateKeyPem)
    // The host reads its sealing key from the environment when it first seals.
    process.env.SEALING_CERT_FILE = path.join(dir, 'seal.pem')
    process.env.SEALING_KEY_FILE = path.join(dir, 'seal.key')
    tsa = await startTsa(tsaCa.issue('lta test TSA', 'timestamping', { crlUrl: crls[1]!.url }))
    host = await startTestHost('pglite', { sealing: { subFilter: 'ETSI.CAdES.detached', tsaUrls: [tsa.url] } })
    // Before it was given the CA's certificate, the host sealed with one it generated (kept in its settings).
    earlier = await generateP12()
    await host.db.query(`insert into settings (key, value) values ('sealing_p12', $1)`, [earlier.toString('base64')])
    client = api(host.apiUrl, `Bearer ${(await host.createApiToken({ name: 'tests' })).token}`)
  })
  afterAll(async () => {
    await host?.stop()
    await Promise.all([tsa?.close(), ...(crls ?? []).map((c) => c.close())])
    if (dir) await rm(dir, { recursive: true, force: true })
    for (const [name, value] of [
      ['SEALING_CERT_FILE', saved.cert],
      ['SEALING_KEY_FILE', saved.key],
    ] as const) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  })

  it('seals B-LTA, and /verify says so and names the document; a page added later is a change', async () => {
    const { itemId } = await completeOneSigner(host, client, { title: 'Pachtvertrag' })
    const pdf = (await client.get(`/envelope/item/${itemId}/download`)).body as Uint8Array
    const anyone = api(host.apiUrl)
    const res = await anyone.post('/verify', pdf, { 'content-type': 'application/pdf' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ valid: true, document: { title: 'Pachtvertrag' } })
    expect(res.body.signatures).toMatchObject([
      { kind: 'signature', level: 'B-LTA', intact: true, updatesAfter: 'validation', sealOfThisService: true, certificate: { subject: expect.stringContaining('lta test seal'), selfSigned: false } },
      { kind: 'document-timestamp', intact: true, coversWholeDocument: true, sealOfThisService: false, certificate: { subject: expect.stringContaining('lta test TSA') } },
    ])
    expect(res.body.sealedByThisService).toBe(true)
    if (HAS_PDFSIG) expect(pdfsig(pdf)).toContain('Signature is Valid.')

    const edited = (await anyone.post('/verify', await addPageIncrementally(pdf), { 'content-type': 'application/pdf' })).body
    expect(edited).toMatchObject({ valid: false, document: null })
    expect(edited.signatures.map((s: { updatesAfter: string }) => s.updatesAfter)).toEqual(['changes', 'changes'])
    // Changes hidden in the revisions after the document timestamp: the seal and the timestamp alike report them.
    for (const [name, hidden] of Object.entries(await hiddenChanges(pdf))) {
      const report = (await anyone.post('/verify', hidden, { 'content-type': 'application/pdf' })).body
      expect([name, report.valid, report.signatures.map((s: { updatesAfter: string }) => s.updatesAfter)]).toEqual([name, false, ['changes', 'changes']])
    }
  })

  it('recognises a seal made with the certificate the host generated before it was given this one', async () => {
    const key: SealingKey = { source: 'database', p12: earlier, passphrase: '', certificatePem: '' }
    key.certificatePem = new X509Certificate(openSealingKey(key).certificates[0]!).toString()
    const input = { envelope: { id: 'e', title: 'Old lease', completedAt: new Date().toISOString() }, items: [{ id: 'i', title: 'Old lease', pdf: await makePdf(1) }], fields: [], recipients: [] }
    const [sealed] = await sealEnvelope(input, key)
    const res = await api(host.apiUrl).post('/verify', sealed!.pdf, { 'content-type': 'application/pdf' })
    expect(res.body).toMatchObject({ valid: true, sealedByThisService: true, signatures: [{ sealOfThisService: true, certificate: { selfSigned: true } }] })
  })
})
