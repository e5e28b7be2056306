// The parent in control of signing: every moment of the signing pages reaches the library's
// callbacks (waiting for one's turn, an expired link, each document of a multi-sign frame).
import { readFile } from 'node:fs/promises'
import type { Page } from 'playwright-core'
import { afterAll, describe, expect } from 'vitest'
import { SIGNATURE } from '../host/support.js'
import { consentThroughApi, sendDocument, sig, signing, signShot, text } from './support/sign.js'
import { callback, events, mount, SAFETY_NET, type Stack, startStack } from './support/stack.js'
import { test } from './support/fixtures.js'

let stack: Stack
test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
})
afterAll(() => stack?.close())

const actions = (page: Page) => page.evaluate(() => window.messages.map((m) => m.data as any).filter((d) => d?.action))
const names = async (page: Page) => (await events(page)).map((e) => e.name)
/** Runs `window.handle[command](...args)` in the parent: its answer, or the error it rejected with. */
const command = (page: Page, name: string, ...args: unknown[]) =>
  page.evaluate(
    ([c, a]) =>
      (window.handle[c as string](...(a as unknown[])) as Promise<unknown>).then(
        (result) => ({ result }),
        (e: any) => ({ error: { code: e.code, message: e.message } }),
      ),
    [name, args] as const,
  )

describe('signing moments', () => {
  test('waiting for turn, then an expired link: the page says which, and the parent hears each once after ready', async () => {
    const turns = await sendDocument(stack, {
      title: 'Lease',
      meta: { signingOrder: 'SEQUENTIAL' },
      recipients: [
        { email: 'first@example.com', name: 'First', role: 'SIGNER', signingOrder: 1, fields: [sig(10, 60)] },
        { email: 'second@example.com', name: 'Second', role: 'SIGNER', signingOrder: 2, fields: [sig(10, 80)] },
      ],
    })
    const { page, frame } = await mount(stack, 'EmbedSignDocument', { token: turns.recipient('second@example.com').token })
    expect(await callback(page, 'onWaitingForTurn')).toBeUndefined()
    expect(await frame.getByTestId('sign-state').getAttribute('data-state')).toBe('NOT_YOUR_TURN')
    expect(await names(page)).toEqual(['onReady', 'onDocumentReady', 'onWaitingForTurn'])
    // The deployed service's message, as its own pages send it.
    expect(await actions(page)).toEqual([{ action: 'document-ready' }, { action: 'document-waiting-for-turn', data: null }])
    await signShot(page, 'sign-control-waiting')
    // Nothing to fill in or download on this screen: the commands are refused, not lost.
    for (const c of ['nextField', 'download']) expect(await command(page, c)).toEqual({ error: { code: 'REFUSED', message: expect.any(String) } })

    const late = await sendDocument(stack, { title: 'Offer', recipients: [{ email: 'late@example.com', name: 'Late', role: 'SIGNER', fields: [sig(10, 80)] }] })
    const token = late.recipient('late@example.com').token
    await stack.host.db.query(`update recipients set expires_at = now() - interval '1 minute' where token = $1`, [token])
    await page.evaluate(([host, t]) => window.mount('EmbedSignDocument', { host, token: t }), [stack.host.url, token] as const)
    expect(await callback(page, 'onLinkExpired')).toBeUndefined()
    await expect.poll(() => frame.getByTestId('sign-state').getAttribute('data-state')).toBe('EXPIRED')
    expect(await names(page)).toEqual(['onReady', 'onDocumentReady', 'onLinkExpired'])
    expect(await actions(page)).toEqual([{ action: 'document-ready' }, { action: 'recipient-expired', data: null }])
    await page.close()
  })

  test('multi-sign: onSignerCompleted for each document signed or rejected in the frame, with the progress', async () => {
    const person = { email: 'mia@example.com', name: 'Mia Multi', role: 'SIGNER' }
    const docs = await Promise.all(['Earlier', 'Contract', 'Order'].map((title) => sendDocument(stack, { title, recipients: [{ ...person, fields: [sig(10, 80)] }] })))
    const tokens = docs.map((d) => d.recipient(person.email).token as string)
    // The first is signed before the frame opens: it counts as done.
    const before = await fetch(`${stack.host.url}/api/signing/session`, { headers: { Authorization: `Bearer ${tokens[0]}` } }).then((r) => r.json())
    await consentThroughApi(stack.host.url, tokens[0]!)
    const signed = await fetch(`${stack.host.url}/api/signing/complete`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tokens[0]}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ fields: before.fields.map((f: any) => ({ id: f.id, value: SIGNATURE })) }),
    })
    expect(signed.status).toBe(200)

    const { page, frame } = await mount(stack, 'EmbedMultiSignDocument', { tokens, name: person.name })
    const list = frame.getByTestId('multi-list')
    await callback(page, 'onDocumentReady')
    const item = (title: string) => list.getByRole('listitem').filter({ hasText: title })
    const s = signing(page, frame)
    const outcome = (i: number) => ({ token: tokens[i], documentId: docs[i]!.documentId, recipientId: docs[i]!.recipient(person.email).id, envelopeId: docs[i]!.id })

    await item('Contract').getByRole('button', { name: 'Sign' }).click()
    await s.ready()
    await s.typeSignature()
    await s.complete()
    expect(await callback(page, 'onSignerCompleted')).toEqual({ ...outcome(1), action: 'document-completed', done: 2, total: 3 })
    await frame.getByTestId('multi-back').click()

    await item('Order').getByRole('button', { name: 'Sign' }).click()
    await s.ready()
    await s.rejectButton().click()
    const dialog = frame.getByRole('dialog', { name: 'Reject the document?' })
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Wrong price')
    await dialog.getByRole('button', { name: 'Reject document' }).click()
    const all = await callback(page, 'onAllDocumentsCompleted')
    const told = (await events(page)).filter((e) => e.name === 'onSignerCompleted').map((e) => e.arg)
    expect(told).toEqual([
      { ...outcome(1), action: 'document-completed', done: 2, total: 3 },
      { ...outcome(2), action: 'document-rejected', reason: 'Wrong price', done: 3, total: 3 },
    ])
    expect(all.documents.map((d: any) => d.action)).toEqual(['document-completed', 'document-completed', 'document-rejected'])
    // Each document's own messages come first; all-documents-completed last.
    expect((await actions(page)).map((m) => m.action).filter((a) => !a.startsWith('field-'))).toEqual([
      'document-ready', 'document-completed', 'signer-completed', 'document-rejected', 'signer-completed', 'all-documents-completed',
    ])
    expect((await names(page)).filter((n) => /Completed|Rejected/.test(n))).toEqual([
      'onDocumentCompleted', 'onSignerCompleted', 'onDocumentRejected', 'onSignerCompleted', 'onAllDocumentsCompleted',
    ])
    await signShot(page, 'sign-control-multisign')
    await page.close()
  })
})

describe('signing commands', () => {
  test('nextField moves to and focuses each field still to fill, setZoom zooms within 100-300 %, download saves the files as sent, then the signed ones', async () => {
    const doc = await sendDocument(stack, {
      title: 'Rental form',
      recipients: [{ email: 'cora@example.com', name: 'Cora', role: 'SIGNER', fields: [text('City', 10, 20), sig(10, 80)] }],
    })
    const fields = (await stack.api('GET', `/envelope/${doc.id}`)).fields as { id: number; type: string }[]
    const { page, frame } = await mount(stack, 'EmbedSignDocument', { token: doc.recipient('cora@example.com').token })
    // Sent before the page is ready: it waits for ready, then the page answers.
    const first = command(page, 'nextField')
    expect(await first).toEqual({ result: { id: fields.find((f) => f.type === 'TEXT')!.id, type: 'TEXT', label: 'City', page: 1 } })
    const focused = () => frame.locator(':focus').getAttribute('aria-label')
    expect(await focused()).toMatch(/^City, required, /)
    expect(await command(page, 'nextField')).toEqual({ result: { id: fields.find((f) => f.type === 'SIGNATURE')!.id, type: 'SIGNATURE', label: 'Signature', page: 1 } })
    expect(await focused()).toMatch(/^Signature, required, /)

    expect(await command(page, 'setZoom', 200)).toEqual({ result: 200 })
    expect(await frame.locator('.zoom-level').textContent()).toBe('200%')
    expect(await frame.locator('.sign-main').getAttribute('style')).toContain('--zoom: 2')
    for (const wrong of [50, 301, '150']) expect(await command(page, 'setZoom', wrong)).toEqual({ error: { code: 'REFUSED', message: 'the zoom is from 100 to 300 percent' } })
    expect(await frame.locator('.zoom-level').textContent()).toBe('200%')
    await frame.locator('.sign-page .page-loading').first().waitFor({ state: 'detached' })
    await signShot(page, 'sign-control-zoomed')

    const [download, answer] = await Promise.all([page.waitForEvent('download'), command(page, 'download')])
    expect(answer).toEqual({ result: ['Rental form.pdf'] })
    expect(download.suggestedFilename()).toBe('Rental form.pdf')
    expect((await readFile((await download.path())!)).subarray(0, 5).toString()).toBe('%PDF-')

    // Every field filled: nothing left to move to. Once signed and sealed, download() gives the signed file.
    const s = signing(page, frame)
    await s.agree()
    await s.typeText('City', 'Graz')
    await s.typeSignature()
    expect(await command(page, 'nextField')).toEqual({ result: null })
    await s.complete()
    await expect.poll(() => s.heading().textContent()).toBe('You signed “Rental form”')
    const signed = page.waitForEvent('download', { predicate: (d) => d.suggestedFilename() === 'Rental form (signed).pdf', timeout: SAFETY_NET })
    await expect.poll(() => command(page, 'download'), { timeout: SAFETY_NET }).toEqual({ result: ['Rental form (signed).pdf'] })
    await signed
    await page.close()
  })
})
