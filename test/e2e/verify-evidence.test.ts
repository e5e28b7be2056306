/**
 * The /verify page with an envelope's evidence file (the JWS of GET /envelope/{id}/evidence) in
 * Chromium: beside the sealed PDF it is this service's, names that PDF and finds the audit log
 * whole; alone it says the same of the log; after an operator's edit of an audit row, the log is
 * reported changed; a file signed by anyone else is refused. No CSP violation on the way.
 */
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { makePdf, PNG, until } from '../host/support.js'
import { axeViolations } from './support/axe.js'
import { SAFETY_NET, SCREENSHOTS, type Stack, startStack } from './support/stack.js'
import { test } from './support/fixtures.js'

describe('the verification page with an evidence file', () => {
  let stack: Stack
  let sealedPdf: Buffer
  let evidence: Buffer
  let envelopeId: string

  test.beforeAll(async ({ browser }) => {
    stack = await startStack(browser)
    const form = new FormData()
    form.set(
      'payload',
      JSON.stringify({
        type: 'DOCUMENT',
        title: 'Lease 9E',
        recipients: [{ email: 'jana@example.com', name: 'Jana', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }] }],
      }),
    )
    form.set('files', new Blob([new Uint8Array(await makePdf(1))], { type: 'application/pdf' }), 'lease.pdf')
    const auth = { Authorization: `Bearer ${stack.apiToken}` }
    const created = await (await fetch(`${stack.host.apiUrl}/envelope/create`, { method: 'POST', headers: auth, body: form })).json()
    envelopeId = created.id
    const envelope = await stack.api<any>('GET', `/envelope/${envelopeId}`)
    const sent = await stack.api<any>('POST', '/envelope/distribute', { envelopeId })
    const signing = { Authorization: `Bearer ${sent.recipients[0].token}`, 'content-type': 'application/json' }
    const call = (p: string, body?: unknown) =>
      fetch(`${stack.host.url}/api/signing${p}`, { method: body === undefined ? 'GET' : 'POST', headers: signing, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
    await call('/open', {})
    // Consent to sign electronically, where the host asks for it.
    const consent = await call('/consent')
    if (consent.status === 200) await call('/consent', { version: (await consent.json()).disclosure.version })
    const session = await (await call('/session')).json()
    const value = `data:image/png;base64,${PNG.toString('base64')}`
    const done = await call('/complete', { fields: session.fields.map((f: any) => ({ id: f.id, value })) })
    expect(done.status).toBe(200)
    const itemId = envelope.envelopeItems[0].id
    await until(async () => {
      const res = await fetch(`${stack.host.apiUrl}/envelope/item/${itemId}/download`, { headers: auth })
      if (res.status === 200) sealedPdf = Buffer.from(await res.arrayBuffer())
      return res.status === 200
    }, SAFETY_NET)
    expect(sealedPdf).toBeDefined()
    const jws = await fetch(`${stack.host.apiUrl}/envelope/${envelopeId}/evidence?format=jws`, { headers: auth })
    expect(jws.headers.get('content-type')).toMatch(/^application\/jose/)
    evidence = Buffer.from(await jws.arrayBuffer())
  })
  afterAll(async () => {
    await stack?.close()
  })

  it('checks the evidence with the sealed PDF, alone, and after an audit row was edited', async () => {
    const context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    await page.goto(`${stack.host.url}/verify`)
    await page.getByText('Verify a signed document').first().waitFor()

    // The evidence alone first: its signature and the audit log, no PDF to compare.
    await page.getByTestId('verify-evidence-file').setInputFiles({ name: 'lease.jws', mimeType: 'application/jose', buffer: evidence })
    await expect.poll(() => page.getByTestId('verify-evidence-verdict').textContent()).toContain('signed with this service’s seal')
    expect(await page.getByTestId('verify-evidence-log').textContent()).toContain('Still holds every entry')
    expect(await page.getByTestId('verify-evidence-pdf').count()).toBe(0)

    // Then the sealed PDF beside it: both reports, the PDF named by the evidence.
    await page.getByTestId('verify-file').setInputFiles({ name: 'lease.pdf', mimeType: 'application/pdf', buffer: sealedPdf })
    await expect.poll(() => page.getByTestId('verify-verdict').textContent()).toContain('The seal is intact')
    await expect.poll(() => page.getByTestId('verify-evidence-pdf').textContent()).toContain('is the sealed document the evidence names')
    expect(await page.getByTestId('verify-evidence').textContent()).toContain(envelopeId)
    await page.screenshot({ path: path.join(SCREENSHOTS, 'verify-evidence.png'), fullPage: true })
    expect(await axeViolations(page)).toEqual([])

    // An operator edits an audit row behind the guard: the same two files now report the log changed.
    const [opened] = await stack.host.db.query<{ id: string }>("select id::text as id from audit_logs where envelope_id = $1 and type = 'DOCUMENT_OPENED'", [envelopeId])
    await stack.host.db.exec('alter table audit_logs disable trigger audit_logs_immutable')
    try {
      await stack.host.db.query('update audit_logs set user_agent = $2 where id = $1', [opened!.id, 'Someone Else'])
    } finally {
      await stack.host.db.exec('alter table audit_logs enable trigger audit_logs_immutable')
    }
    await page.getByTestId('verify-evidence-file').setInputFiles({ name: 'lease.jws', mimeType: 'application/jose', buffer: evidence })
    await expect.poll(() => page.getByTestId('verify-evidence-log').textContent()).toContain('Changed since the evidence was made')
    expect(await page.getByTestId('verify-evidence-verdict').textContent()).toContain('signed with this service’s seal')
    await page.screenshot({ path: path.join(SCREENSHOTS, 'verify-evidence-changed.png'), fullPage: true })

    // One byte of the payload changed: the signature no longer holds.
    const [h, p, s] = evidence.toString().split('.') as [string, string, string]
    const payload = Buffer.from(p, 'base64url')
    payload[payload.indexOf('Lease 9E')] = 'K'.charCodeAt(0)
    await page.getByTestId('verify-evidence-file').setInputFiles({ name: 'changed.jws', mimeType: 'application/jose', buffer: Buffer.from(`${h}.${payload.toString('base64url')}.${s}`) })
    await expect.poll(() => page.getByTestId('verify-evidence-verdict').textContent()).toContain('not signed with this service’s seal')
    await context.close()

    // On a phone, in German: the second drop zone and the report in the reader's language.
    const phone = await stack.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true })
    const small = await phone.newPage()
    await small.goto(`${stack.host.url}/verify?lang=de`)
    await small.getByText('Nachweisdatei (.jws)').first().waitFor()
    await small.getByTestId('verify-evidence-file').setInputFiles({ name: 'lease.jws', mimeType: 'application/jose', buffer: evidence })
    await expect.poll(() => small.getByTestId('verify-evidence-verdict').textContent()).toContain('mit dem Siegel dieses Dienstes signiert')
    expect(await axeViolations(small)).toEqual([])
    await small.screenshot({ path: path.join(SCREENSHOTS, 'verify-evidence-phone-de.png'), fullPage: true })
    await phone.close()
  })
})
