/**
 * Budgets for what callers send: signature pictures, PDFs with active content or bombs, and the
 * lanes that keep other callers answered meanwhile.
 * Database: the embedded one (decoding budgets are the worker threads', not the database's).
 */
import { deflateSync } from 'node:zlib'
import { PDFDocument, PDFName, PDFString } from '@cantoo/pdf-lib'
import { PNG as PngImage } from 'pngjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_PNG_PIXELS } from '../../host/server/images/png.js'
import { SIGNATURE_MAX_SIDE } from '../../host/server/images/signature.js'
import { VERIFY_LIMITS, verifyLaneWaiting } from '../../host/server/workers/verify-lane.js'
import { CATALOG, meterBypasses, PAGE, PAGES, pngOf, rawPdf, stream, zerosDeflated } from './hostile.js'
import { api, createEnvelope, form, makePdf, sealed, SIGNATURE, startTestHost, VARIANTS, type Api, type TestHost } from './support.js'

const box = { page: 1, width: 20, height: 5 }
const dataUrl = (png: Uint8Array) => `data:image/png;base64,${Buffer.from(png).toString('base64')}`

/** A real RGBA PNG of `width` x `height`: ink strokes on transparency, as a signature pad draws. */
function realPng(width: number, height: number): Buffer {
  const png = new PngImage({ width, height })
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (Math.abs(((x * 3) % height) - y) < 4) png.data[(y * width + x) * 4 + 3] = 255
  return PngImage.sync.write(png)
}

/** Signature pictures that used to pass at submission and then fail (or never finish) at sealing. */
const HOSTILE_SIGNATURES: Record<string, Buffer> = {
  // 16000 x 16000 declared in 31 KB: refused from its header, before anything decodes it.
  'a 16000 x 16000 PNG of 31 KB': pngOf({ width: 16000, height: 16000, bitDepth: 1, colorType: 0 }, deflateSync(Buffer.alloc(16000 * 2001))),
  'PNG magic and a broken body': Buffer.concat([pngOf({ width: 10, height: 10 }, Buffer.alloc(0)).subarray(0, 8), Buffer.from('not a png at all, just bytes')]),
  'a valid header and broken data': pngOf({ width: 10, height: 10 }, Buffer.from('garbage garbage garbage')),
  'data that inflates past what the header declares': pngOf({ width: 100, height: 100 }, zerosDeflated(64)),
  'an interlaced bomb': pngOf({ width: 100, height: 100, interlace: 1 }, zerosDeflated(64)),
  'a truncated PNG': realPng(200, 100).subarray(0, 300),
  'just over the pixel budget': pngOf({ width: MAX_PNG_PIXELS / 1000 + 1, height: 1000, bitDepth: 1, colorType: 0 }, Buffer.alloc(0)),
}

describe.each(VARIANTS.filter((v) => v.variant === 'pglite'))('budgets on $variant', ({ variant, skip }) => {
  let host: TestHost
  let client: Api
  let other: Api

  beforeAll(async () => {
    if (skip) return
    host = await startTestHost(variant)
    const team = await host.createTeam({ name: 'Acme', plan: 'team' })
    client = api(host.apiUrl, (await host.createApiToken({ name: 'tests', teamId: team.id })).token)
    const otherTeam = await host.createTeam({ name: 'Other', plan: 'team' })
    other = api(host.apiUrl, (await host.createApiToken({ name: 'tests', teamId: otherTeam.id })).token)
  })
  afterAll(async () => {
    await host?.stop()
  })

  const signing = (token: string) => api(`${host.url}/api/signing`, `Bearer ${token}`)

  /** A parallel document for two signers, each with one signature field; their signing clients and field ids. */
  async function twoSigners() {
    const e = await createEnvelope(client, {
      recipients: ['ann', 'bob'].map((n, i) => ({ email: `${n}@example.com`, name: n, role: 'SIGNER', fields: [{ ...box, type: 'SIGNATURE', positionX: 10, positionY: 10 + 20 * i }] })),
    })
    const { recipients } = (await client.post('/envelope/distribute', { envelopeId: e.id })).body
    const fieldOf = (i: number) => e.fields.find((f: any) => f.recipientId === e.recipients[i].id).id
    return { e, ann: { client: signing(recipients[0].token), field: fieldOf(0) }, bob: { client: signing(recipients[1].token), field: fieldOf(1) } }
  }

  it.skipIf(skip)('a signature picture that cannot be decoded within the budgets is a 400 to its sender; the document can still be completed', async () => {
    const { e, ann, bob } = await twoSigners()
    for (const [name, png] of Object.entries(HOSTILE_SIGNATURES)) {
      const res = await ann.client.post('/complete', { fields: [{ id: ann.field, value: dataUrl(png) }] })
      expect([name, res.status, res.body.code, res.body.issues?.[0]?.path]).toEqual([name, 400, 'INVALID_REQUEST', 'fields.0.value'])
    }
    expect((await ann.client.post('/complete', { fields: [{ id: ann.field, value: SIGNATURE }] })).status).toBe(200)
    // The last signer completes: sealing only meets pictures decoded at submission.
    expect((await bob.client.post('/complete', { fields: [{ id: bob.field, value: dataUrl(realPng(300, 100)) }] })).status).toBe(200)
    const done = (await client.get(`/envelope/${e.id}`)).body
    expect(done.status).toBe('COMPLETED')
    await sealed(host, e.id, 180_000)
    const signed = await client.get(`/envelope/item/${done.envelopeItems[0].id}/download`)
    expect([signed.status, Buffer.from(signed.body.slice(0, 5)).toString()]).toEqual([200, '%PDF-'])
  })

  it.skipIf(skip)('a picture is stored re-encoded: bounded in size, one well-formed kind (interlaced and large ones too)', async () => {
    const { e, ann, bob } = await twoSigners()
    // A 1 x 1 interlaced RGBA PNG: the first Adam7 pass holds its only pixel.
    const interlaced = pngOf({ width: 1, height: 1, interlace: 1 }, deflateSync(Buffer.from([0, 10, 20, 30, 255])))
    expect((await ann.client.post('/complete', { fields: [{ id: ann.field, value: dataUrl(interlaced) }] })).status).toBe(200)
    expect((await bob.client.post('/complete', { fields: [{ id: bob.field, value: dataUrl(realPng(3000, 600)) }] })).status).toBe(200)
    const stored = await host.db.query<{ custom_text: string }>('select custom_text from fields where envelope_id = $1 order by id', [e.id])
    const images = stored.map((f) => PngImage.sync.read(Buffer.from(f.custom_text.split(',')[1]!, 'base64')))
    expect(images.map((i) => [i.width, i.height, i.interlace, i.colorType])).toEqual([
      [1, 1, false, 6],
      [SIGNATURE_MAX_SIDE, (SIGNATURE_MAX_SIDE * 600) / 3000, false, 6],
    ])
    expect([...images[0]!.data]).toEqual([10, 20, 30, 255])
    expect((await client.get(`/envelope/${e.id}`)).body.status).toBe('COMPLETED')
  })

  it.skipIf(skip)("a template direct link's visitor gets the same 400", async () => {
    const t = await createEnvelope(client, {
      type: 'TEMPLATE',
      recipients: [
        { email: 'landlord@example.com', name: 'Landlord', role: 'SIGNER', fields: [{ ...box, type: 'SIGNATURE', positionX: 50, positionY: 80 }] },
        { email: 'tenant@example.com', name: 'Tenant', role: 'SIGNER', fields: [{ ...box, type: 'SIGNATURE', positionX: 10, positionY: 80 }] },
      ],
    })
    const tenant = t.recipients.find((r: any) => r.email === 'tenant@example.com')
    const link = (await client.post('/template/direct/create', { templateId: Number(t.secondaryId.split('_')[1]), directRecipientId: tenant.id })).body
    const visitor = signing(link.token)
    const sig = (await visitor.get('/direct/session')).body.fields[0]
    const res = await visitor.post('/direct/complete', { signer: { name: 'Vera', email: 'vera@example.com' }, fields: [{ id: sig.id, value: dataUrl(HOSTILE_SIGNATURES['a 16000 x 16000 PNG of 31 KB']!) }] })
    expect([res.status, res.body.code, res.body.issues?.[0]?.path]).toEqual([400, 'INVALID_REQUEST', 'fields.0.value'])
  })

  it.skipIf(skip)('an uploaded PDF is stored without its active content, and so is the sealed one', async () => {
    const doc = await PDFDocument.load(await makePdf(1))
    const ctx = doc.context
    const js = (code: string) => ctx.obj({ S: 'JavaScript', JS: PDFString.of(code) })
    doc.catalog.set(PDFName.of('OpenAction'), ctx.register(js('app.alert("open")')))
    doc.catalog.set(PDFName.of('AA'), ctx.obj({ WC: js('app.alert("close")') }))
    doc.catalog.set(PDFName.of('Names'), ctx.obj({ JavaScript: ctx.obj({ Names: [PDFString.of('x'), ctx.register(js('app.alert("names")'))] }), EmbeddedFiles: ctx.obj({ Names: [] }) }))
    const page = doc.getPage(0)
    page.node.set(PDFName.of('AA'), ctx.obj({ O: js('app.alert("page")') }))
    const annotation = (action: Record<string, any>) => ctx.register(ctx.obj({ Type: 'Annot', Subtype: 'Link', Rect: [0, 0, 10, 10], A: ctx.obj(action) }))
    const field = ctx.register(ctx.obj({ FT: 'Tx', T: PDFString.of('f'), Type: 'Annot', Subtype: 'Widget', Rect: [0, 0, 10, 10], AA: ctx.obj({ K: js('app.alert("key")') }) }))
    page.node.set(PDFName.of('Annots'), ctx.obj([
      annotation({ S: 'JavaScript', JS: PDFString.of('app.alert("link")') }),
      annotation({ S: 'Launch', F: PDFString.of('calc.exe') }),
      annotation({ S: 'URI', URI: PDFString.of('javascript:app.alert(1)') }),
      annotation({ S: 'GoTo', D: [page.ref, 'Fit'], Next: js('app.alert("next")') }),
      annotation({ S: 'URI', URI: PDFString.of('https://example.com/terms') }),
      field,
    ]))
    doc.catalog.set(PDFName.of('AcroForm'), ctx.obj({ Fields: [field], XFA: PDFString.of('<xdp/>') }))
    const hostile = await doc.save({ useObjectStreams: false })
    const ACTIVE = ['/JavaScript', '/JS', '/OpenAction', '/AA', '/Launch', '/EmbeddedFiles', '/XFA', 'javascript:', '/Next']
    const present = (pdf: Uint8Array) => ACTIVE.filter((k) => Buffer.from(pdf).toString('latin1').includes(k))
    expect(present(hostile)).toEqual(ACTIVE)

    const e = await createEnvelope(
      client,
      { recipients: [{ email: 'ann@example.com', name: 'Ann', role: 'SIGNER', fields: [{ ...box, type: 'SIGNATURE', positionX: 10, positionY: 10 }] }] },
      [{ bytes: hostile, name: 'scripted.pdf' }],
    )
    const itemId = e.envelopeItems[0].id
    const stored = (await client.get(`/envelope/item/${itemId}/download?version=original`)).body
    expect(present(stored)).toEqual([])
    expect(Buffer.from(stored).toString('latin1')).toContain('https://example.com/terms')
    const { recipients } = (await client.post('/envelope/distribute', { envelopeId: e.id })).body
    expect((await signing(recipients[0].token).post('/complete', { fields: [{ id: e.fields[0].id, value: SIGNATURE }] })).status).toBe(200)
    expect(present((await client.get(`/envelope/item/${itemId}/download`)).body)).toEqual([])
  })

  it.skipIf(skip)("while a bomb is checked, another team's requests are answered", async () => {
    const mine = await createEnvelope(other)
    const bomb = meterBypasses(512)['object stream that says it is an image']!
    let settled = false
    const upload = client.post('/envelope/create', form({ type: 'DOCUMENT', title: 'Bomb' }, [{ bytes: bomb, name: 'bomb.pdf' }])).finally(() => (settled = true))
    let answered = 0
    while (!settled) {
      const res = await other.get(`/envelope/${mine.id}`)
      expect(res.status).toBe(200)
      if (!settled) answered++
    }
    const refused = await upload
    expect([refused.status, refused.body.code]).toEqual([400, 'INVALID_PDF'])
    // Answers kept coming while the bomb was being decoded (the old check blocked the loop throughout).
    expect(answered).toBeGreaterThanOrEqual(5)
  })

  // Checks at the lowest priority, with rests between them, on a busy machine: a generous safety net
  // (with two cores loaded by other work a check of this PDF, a second when quiet, took over a minute,
  // and the lane rests four times as long after it).
  it.skipIf(skip)("anonymous checks run in a lane of their own: a team's upload does not wait behind them, and a full lane is 503 for the checks only", { timeout: 1_800_000 }, async () => {
    // A valid PDF of 60,000 small objects: about a second of parsing for each check.
    const big = rawPdf([CATALOG, PAGES, PAGE, stream('', Buffer.from('BT ET')), ...Array(60_000).fill('<< /A [1 2 3] /B (x) >>')])
    const anyone = api(host.apiUrl)
    const verify = () => anyone.post('/verify', big, { 'content-type': 'application/pdf' })
    // Both pools' threads started and ready, and the lane's rest after its first check over (it
    // works at most half the time: a rest as long as the check took).
    const warming = performance.now()
    await Promise.all([anyone.post('/verify', await makePdf(1), { 'content-type': 'application/pdf' }), createEnvelope(client)])
    await new Promise((r) => setTimeout(r, performance.now() - warming))
    const { queue, share, timeoutMs } = VERIFY_LIMITS
    VERIFY_LIMITS.queue = 1
    // The time limit is not what is tested here (worker-pool.test.ts holds the pools' one): no check is cut off.
    VERIFY_LIMITS.timeoutMs = 1_800_000
    try {
      let checked = 0
      const checks = [verify(), verify()].map((p) => p.finally(() => checked++))
      // Both reached the lane: one running, one waiting (however long their bodies took to arrive).
      for (const until = Date.now() + 30_000; verifyLaneWaiting() < 1; await new Promise((r) => setTimeout(r, 10))) {
        if (Date.now() > until || checked === 2) throw new Error('the two checks never filled the lane')
      }
      // However slow the upload is on a busy machine, the waiting check cannot end before it: until
      // the upload is answered, the lane rests four times as long as a check took.
      VERIFY_LIMITS.share = 0.2
      const refused = await verify()
      expect([refused.status, refused.body.code, typeof refused.body.message, refused.headers.get('retry-after')]).toEqual([503, 'BUSY', 'string', '5'])
      const upload = await client.post('/envelope/create', form({ type: 'DOCUMENT', title: 'Lease' }, [{ bytes: await makePdf(1), name: 'lease.pdf' }]))
      expect(upload.status).toBe(200)
      // The upload was answered while the checks still ran (in one shared pool it came after both).
      expect(checked).toBeLessThan(2)
      VERIFY_LIMITS.share = share
      expect((await Promise.all(checks)).map((r) => [r.status, r.body.valid])).toEqual([
        [200, false],
        [200, false],
      ])
    } finally {
      Object.assign(VERIFY_LIMITS, { queue, share, timeoutMs })
    }
  })
})
