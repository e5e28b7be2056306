/**
 * A host with a CA-issued sealing certificate that names a CRL and a timestamp server: completed
 * documents are sealed B-LTA (DSS with the chains' CRLs, a document timestamp), on both databases,
 * and POST /verify recognises them; an editor's page added afterwards is reported as a change.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCrlServer, type CrlServer } from '../support/crl-server.js'
import { addPageIncrementally } from '../support/incremental.js'
import { hasTool, pdfsig } from '../support/outside-checks.js'
import { makeTestCa } from '../support/test-pki.js'
import { startTsa, type TsaServer } from '../support/tsa-server.js'
import { api, completeOneSigner, startTestHost, VARIANTS, type Api, type TestHost } from './support.js'

const HAS_PDFSIG = hasTool('pdfsig')

describe.each(VARIANTS)('B-LTA seals on $variant', ({ variant, skip }) => {
  let host: TestHost
  let client: Api
  let tsa: TsaServer
  let crls: CrlServer[]
  let dir: string
  const saved = { cert: process.env.SEALING_CERT_FILE, key: process.env.SEALING_KEY_FILE }

  beforeAll(async () => {
    if (skip) return
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
    host = await startTestHost(variant, { sealing: { subFilter: 'ETSI.CAdES.detached', tsaUrls: [tsa.url] } })
    client = api(host.apiUrl, `Bearer ${(await host.createApiToken({ name: 'tests' })).token}`)
  }, 60_000)
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

  it.skipIf(skip)('seals B-LTA, and /verify says so and names the document; a page added later is a change', async () => {
    const { itemId } = await completeOneSigner(host, client, { title: 'Pachtvertrag' })
    const pdf = (await client.get(`/envelope/item/${itemId}/download`)).body as Uint8Array
    const anyone = api(host.apiUrl)
    const res = await anyone.post('/verify', pdf, { 'content-type': 'application/pdf' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ valid: true, document: { title: 'Pachtvertrag' } })
    expect(res.body.signatures).toMatchObject([
      { kind: 'signature', level: 'B-LTA', intact: true, updatesAfter: 'validation', certificate: { subject: expect.stringContaining('lta test seal'), selfSigned: false } },
      { kind: 'document-timestamp', intact: true, coversWholeDocument: true, certificate: { subject: expect.stringContaining('lta test TSA') } },
    ])
    if (HAS_PDFSIG) expect(pdfsig(pdf)).toContain('Signature is Valid.')

    const edited = (await anyone.post('/verify', await addPageIncrementally(pdf), { 'content-type': 'application/pdf' })).body
    expect(edited).toMatchObject({ valid: false, document: null })
    expect(edited.signatures.map((s: { updatesAfter: string }) => s.updatesAfter)).toEqual(['changes', 'changes'])
  })
})
