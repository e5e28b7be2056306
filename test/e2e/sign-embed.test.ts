// The signing embed: the library's EmbedSignDocument on a customer's page (another origin), the
// recipient signing inside the cross-origin frame, the parent hearing of it through its callbacks.
import { afterAll, describe, expect } from 'vitest'
import { PHONE, sendDocument, sig, signing, signShot } from './support/sign.js'
import { callback, events, mount, startStack, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'

let stack: Stack
test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
})
afterAll(() => stack?.close())

const nameField = (x: number, y: number) => ({ type: 'NAME', page: 1, positionX: x, positionY: y, width: 30, height: 4 })
const messages = (page: import('playwright-core').Page) => page.evaluate(() => window.messages.map((m) => ({ origin: m.origin, data: m.data as any })))

describe('EmbedSignDocument', () => {
  test('sign in the frame: onDocumentReady, then onDocumentCompleted with the ids; locked name, no reject', async () => {
    const doc = await sendDocument(stack, {
      title: 'NDA',
      recipients: [{ email: 'emil@example.com', name: 'Emil', role: 'SIGNER', fields: [nameField(55, 70), sig(10, 80)] }],
    })
    const emil = doc.recipient('emil@example.com')
    const { page, frame } = await mount(stack, 'EmbedSignDocument', {
      token: emil.token,
      name: 'Emil Embedded',
      lockName: true,
      allowDocumentRejection: false,
    })
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    const s = signing(page, frame)
    await s.ready()
    await callback(page, 'onDocumentReady')
    expect(await page.locator('iframe').getAttribute('title')).toBe('Sign document')
    expect(await frame.getByText('Signing as Emil Embedded (emil@example.com)').count()).toBe(1)

    // The embed's name fills the NAME field, read-only; the reject action is not offered.
    const locked = frame.getByRole('note', { name: 'Name, required, filled in: Emil Embedded, cannot be changed' })
    expect(await locked.textContent()).toBe('Emil Embedded')
    expect(await s.field('Name').count()).toBe(0)
    expect(await s.rejectButton().count()).toBe(0)
    await signShot(page, 'sign-embed-ready')

    await (await s.drawSignature()).adopt()
    await s.complete()
    await expect.poll(() => s.heading().textContent()).toBe('You signed “NDA”')
    const completed = await callback(page, 'onDocumentCompleted')
    expect(completed).toEqual({ token: emil.token, documentId: doc.documentId, recipientId: emil.id, envelopeId: doc.id })
    expect(typeof completed.documentId).toBe('number')
    await signShot(page, 'sign-embed-done')

    const names = (await events(page)).map((e) => e.name)
    expect(names.indexOf('onDocumentReady')).toBeGreaterThanOrEqual(0)
    expect(names.indexOf('onDocumentReady')).toBeLessThan(names.indexOf('onDocumentCompleted'))
    expect(names).not.toContain('onDocumentError')

    // On the wire: only the host's origin spoke, in {action, data} for the signing messages.
    const wire = await messages(page)
    expect(new Set(wire.map((m) => m.origin))).toEqual(new Set([new URL(stack.host.url).origin]))
    expect(wire.map((m) => m.data.action).filter(Boolean)).toEqual(['document-ready', 'field-signed', 'document-completed'])
    expect(wire.find((m) => m.data.action === 'document-completed')!.data.data).toEqual(completed)

    // The service got the locked name as the NAME field's value.
    const envelope = await stack.api('GET', `/envelope/${doc.id}`)
    expect(envelope.status).toBe('COMPLETED')
    expect(envelope.fields.find((f: any) => f.type === 'NAME')).toMatchObject({ inserted: true, customText: 'Emil Embedded' })
    expect(errors).toEqual([])
    await page.close()
  })

  test('by default the reject action is there and the name editable; rejecting calls onDocumentRejected (phone)', async () => {
    const doc = await sendDocument(stack, {
      title: 'Offer letter',
      recipients: [{ email: 'erik@example.com', name: 'Erik Embed', role: 'SIGNER', fields: [nameField(55, 70), sig(10, 80)] }],
    })
    const erik = doc.recipient('erik@example.com')
    const { page, frame } = await mount(stack, 'EmbedSignDocument', { token: erik.token }, PHONE)
    const s = signing(page, frame)
    await s.ready()
    expect(await s.field('Name').getAttribute('aria-label')).toBe('Name, required, filled in: Erik Embed')
    await signShot(page, 'sign-embed-ready-phone')

    await s.rejectButton().click()
    const dialog = frame.getByRole('dialog', { name: 'Reject the document?' })
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Salary is wrong')
    await dialog.getByRole('button', { name: 'Reject document' }).click()
    await expect.poll(() => s.heading().textContent()).toBe('You rejected “Offer letter”')
    expect(await callback(page, 'onDocumentRejected')).toEqual({
      token: erik.token, documentId: doc.documentId, recipientId: erik.id, envelopeId: doc.id, reason: 'Salary is wrong',
    })
    expect((await events(page)).map((e) => e.name)).not.toContain('onDocumentCompleted')
    expect((await stack.api('GET', `/envelope/${doc.id}`)).status).toBe('REJECTED')
    await signShot(page, 'sign-embed-rejected-phone')
    await page.close()
  })
})
