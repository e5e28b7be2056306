// The deployed service's EmbedMultiSignDocument, unmodified, against this host: one person's
// documents in one frame (/embed/v1/multisign?token=…&token=…), each signed or rejected in turn.
import { afterAll, describe, expect } from 'vitest'
import { sendDocument, sig, signing, signShot } from './support/sign.js'
import { callback, events, mountDeployed, startStack, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'

let stack: Stack
test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
})
afterAll(() => stack?.close())

describe('unstable_EmbedMultiSignDocument (deployed library)', () => {
  test('lists the documents, signs one, rejects the other, then reports them all', async () => {
    const nda = await sendDocument(stack, { title: 'NDA', recipients: [{ email: 'mo@example.com', name: 'Mo Multi', role: 'SIGNER', fields: [sig(10, 80)] }] })
    const order = await sendDocument(stack, { title: 'Order form', recipients: [{ email: 'mo@example.com', name: 'Mo Multi', role: 'SIGNER', fields: [sig(10, 80)] }] })
    const tokens = [nda.recipient('mo@example.com').token, order.recipient('mo@example.com').token]
    const { page, frame } = await mountDeployed(stack, 'unstable_EmbedMultiSignDocument', { tokens, name: 'Mo Multi' })
    expect(new URL((await page.locator('iframe').getAttribute('src'))!).searchParams.getAll('token')).toEqual(tokens)

    const list = frame.getByTestId('multi-list')
    await list.waitFor()
    await callback(page, 'onDocumentReady')
    expect(await list.getByRole('listitem').allTextContents()).toEqual(['NDAWaiting for youSign', 'Order formWaiting for youSign'])
    await signShot(page, 'multisign-list')

    // The first: signed.
    await list.getByRole('listitem').filter({ hasText: 'NDA' }).getByRole('button', { name: 'Sign' }).click()
    const s = signing(page, frame)
    await s.ready()
    await (await s.drawSignature()).adopt()
    await s.complete()
    await expect.poll(() => s.heading().textContent()).toBe('You signed “NDA”')
    const completed = await callback(page, 'onDocumentCompleted')
    expect(completed).toMatchObject({ token: tokens[0], documentId: nda.documentId, recipientId: nda.recipient('mo@example.com').id })
    await frame.getByTestId('multi-back').click()
    await expect.poll(() => list.getByRole('listitem').first().getAttribute('data-state')).toBe('document-completed')

    // The second: rejected.
    await list.getByRole('listitem').filter({ hasText: 'Order form' }).getByRole('button', { name: 'Sign' }).click()
    await s.ready()
    await s.rejectButton().click()
    const dialog = frame.getByRole('dialog', { name: 'Reject the document?' })
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Wrong quantity')
    await dialog.getByRole('button', { name: 'Reject document' }).click()
    await expect.poll(() => s.heading().textContent()).toBe('You rejected “Order form”')
    const all = await callback(page, 'onAllDocumentsCompleted')
    expect(all).toEqual({
      documents: [
        { token: tokens[0], documentId: nda.documentId, recipientId: nda.recipient('mo@example.com').id, envelopeId: nda.id, action: 'document-completed' },
        { token: tokens[1], documentId: order.documentId, recipientId: order.recipient('mo@example.com').id, envelopeId: order.id, action: 'document-rejected', reason: 'Wrong quantity' },
      ],
    })
    await frame.getByTestId('multi-back').click()
    await frame.getByText('All documents are done. Thank you.').waitFor()
    await signShot(page, 'multisign-done')

    const names = (await events(page)).map((e) => e.name)
    expect(names.filter((n) => n === 'onDocumentReady')).toHaveLength(1)
    expect(names.filter((n) => n === 'onAllDocumentsCompleted')).toHaveLength(1)
    expect(names).not.toContain('onDocumentError')
    expect((await stack.api('GET', `/envelope/${nda.id}`)).status).toBe('COMPLETED')
    expect((await stack.api('GET', `/envelope/${order.id}`)).status).toBe('REJECTED')
  })

  test('an unknown token among them: the frame reports the invalid link', async () => {
    const doc = await sendDocument(stack, { title: 'Lease', recipients: [{ email: 'x@example.com', name: 'X', role: 'SIGNER', fields: [sig(10, 80)] }] })
    const { page, frame } = await mountDeployed(stack, 'unstable_EmbedMultiSignDocument', { tokens: [doc.recipient('x@example.com').token, 'not-a-token'] })
    await frame.getByTestId('sign-error').waitFor()
    expect(await frame.getByTestId('sign-error').getAttribute('data-state')).toBe('INVALID_LINK')
    expect(typeof (await callback(page, 'onDocumentError'))).toBe('string')
  })
})
