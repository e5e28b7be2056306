/**
 * POST /api/v2/verify on both databases: a sealed file of this service is recognised (title,
 * completion, recipients; nothing else), a changed copy is reported as changed, an unknown or
 * unsigned file tells nothing about any document, and the route's budgets hold.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addPageIncrementally } from '../support/incremental.js'
import { api, completeOneSigner, makePdf, startTestHost, VARIANTS, type Api, type TestHost } from './support.js'

describe.each(VARIANTS)('POST /verify on $variant', ({ variant, skip }) => {
  let host: TestHost
  let client: Api
  let anyone: Api
  let sealedPdf: Uint8Array

  beforeAll(async () => {
    if (skip) return
    host = await startTestHost(variant, { verifyRateLimit: 12, maxUploadBytes: 2 * 1024 * 1024 })
    client = api(host.apiUrl, `Bearer ${(await host.createApiToken({ name: 'tests' })).token}`)
    anyone = api(host.apiUrl)
    const { itemId } = await completeOneSigner(host, client, { title: 'Lease 4B' })
    sealedPdf = (await client.get(`/envelope/item/${itemId}/download`)).body
  }, 60_000)
  afterAll(async () => {
    await host?.stop()
  })

  const check = (bytes: Uint8Array) => anyone.post('/verify', bytes, { 'content-type': 'application/pdf' })

  it.skipIf(skip)('recognises a sealed file: intact, whole, PAdES, and the document it is', async () => {
    const res = await check(sealedPdf)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ valid: true, pageCount: 3 })
    expect(res.body.signatures).toHaveLength(1)
    expect(res.body.signatures[0]).toMatchObject({
      subFilter: 'ETSI.CAdES.detached',
      intact: true,
      coversWholeDocument: true,
      signedAt: expect.any(String),
      certificate: { subject: expect.stringContaining('envelope-embed host seal'), selfSigned: true },
    })
    expect(res.body.document).toEqual({ title: 'Lease 4B', completedAt: expect.any(String), recipients: [{ name: 'Jana', role: 'SIGNER', completedAt: expect.any(String) }] })
    // The same through a form, as curl -F sends it.
    const form = new FormData()
    form.set('file', new Blob([new Uint8Array(sealedPdf)], { type: 'application/pdf' }), 'lease.pdf')
    expect((await anyone.post('/verify', form)).body).toMatchObject({ valid: true })
  })

  it.skipIf(skip)('reports one changed byte and an appended page as changed, and names no document', async () => {
    const bytes = Buffer.from(sealedPdf)
    const at = bytes.indexOf('/MediaBox')
    bytes[at + 12] = bytes[at + 12] === 0x31 ? 0x32 : 0x31
    const changed = (await check(bytes)).body
    expect(changed).toMatchObject({ valid: false, document: null })
    expect(changed.signatures[0]).toMatchObject({ intact: false, problem: expect.stringContaining('changed') })

    const appended = (await check(await addPageIncrementally(sealedPdf))).body
    expect(appended).toMatchObject({ valid: false, document: null, pageCount: 4 })
    expect(appended.signatures[0]).toMatchObject({ intact: true, coversWholeDocument: false, updatesAfter: 'changes' })
  })

  it.skipIf(skip)('tells nothing for an unsigned file, refuses what is not a PDF, too large, or too often', async () => {
    expect((await check(await makePdf(1))).body).toMatchObject({ valid: false, signatures: [], document: null })
    const junk = await check(new TextEncoder().encode('not a pdf'))
    expect(junk.status).toBe(400)
    expect(junk.body).toMatchObject({ code: 'INVALID_PDF', message: expect.any(String) })
    const big = await check(new Uint8Array(3 * 1024 * 1024))
    expect(big.status).toBe(413)
    expect(big.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' })
    let last = 0
    for (let i = 0; i < 12 && last !== 429; i++) last = (await check(await makePdf(1))).status
    expect(last).toBe(429)
    const limited = await check(await makePdf(1))
    expect(limited.body).toMatchObject({ code: 'RATE_LIMITED' })
    // Nothing of what was checked was stored.
    const [{ n }] = (await host.db.query<{ n: number }>('select count(*)::int as n from document_data')) as [{ n: number }]
    expect(n).toBe(2) // the original and its sealed copy
  })
})
