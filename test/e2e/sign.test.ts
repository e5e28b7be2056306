// The signing pages end to end: documents sent through the API, each recipient's link opened in
// Chromium and worked the way a person does (pointer, keyboard, dialogs), the outcome checked
// through the API and in the sealed PDF.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect } from 'vitest'
import { pdfText, verifyPdfSignature } from '../support/pdf-signature.js'
import { apiBytes, checkbox, inkPixels, openPage, PHONE, sendDocument, sig, signing, signShot, text } from './support/sign.js'
import { SAFETY_NET, SCREENSHOTS, type Stack, startStack } from './support/stack.js'
import { test } from './support/fixtures.js'

let stack: Stack
test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
})
afterAll(() => stack?.close())

const recipientOf = (envelope: any, email: string) => envelope.recipients.find((r: any) => r.email === email)
const fieldsOf = (envelope: any, recipientId: number) => envelope.fields.filter((f: any) => f.recipientId === recipientId)

describe('a sequential document: a signer, then an approver', () => {
  test('drawn signature, typed text, a checkbox, approval; the sealed PDF verifies and names both', async () => {
    const doc = await sendDocument(stack, {
      title: 'Supply contract',
      meta: { signingOrder: 'SEQUENTIAL' },
      recipients: [
        {
          email: 'sofia@example.com', name: 'Sofia Signer', role: 'SIGNER', signingOrder: 1,
          fields: [text('City', 10, 62), checkbox('Extras', ['Support', 'Training'], 55, 62), sig(10, 80)],
        },
        { email: 'arno@example.com', name: 'Arno Approver', role: 'APPROVER', signingOrder: 2 },
      ],
    })
    const sofia = doc.recipient('sofia@example.com')
    const arno = doc.recipient('arno@example.com')

    // The approver is too early: the wait screen names who is still to act.
    const approver = await openPage(stack, arno.signingUrl)
    await expect.poll(() => signing(approver.page).heading().textContent()).toBe('It is not your turn yet')
    const waiting = approver.page.getByRole('listitem')
    expect(await waiting.allTextContents()).toEqual([expect.stringContaining('Sofia Signer')])
    expect(await approver.page.getByTestId('sign-bar').count()).toBe(0)
    await signShot(approver.page, 'sign-seq-not-your-turn')

    const signer = await openPage(stack, sofia.signingUrl)
    const s = signing(signer.page)
    await s.ready()
    expect(await signer.page.getByText('Signing as Sofia Signer (sofia@example.com)').count()).toBe(1)
    expect(await signer.page.getByTestId('progress').textContent()).toBe('Required fields: 0 of 2')
    await s.field('Signature').scrollIntoViewIfNeeded()
    await signShot(signer.page, 'sign-seq-ready')

    // Completing too early: the guide says what is missing and nothing is sent.
    await s.action('Complete signing').click()
    await expect.poll(() => signer.page.getByTestId('notice').textContent()).toBe('Fill in 2 more required fields first.')
    expect(await signer.page.getByRole('dialog').count()).toBe(0)

    const draw = await s.drawSignature()
    await signShot(signer.page, 'sign-seq-draw')
    await draw.adopt()
    await expect.poll(() => s.field('Signature').getAttribute('data-state')).toBe('filled')
    await s.typeText('City', 'Zürich 42')
    await s.check('Extras', ['Training'])
    await expect.poll(() => signer.page.getByTestId('progress').textContent()).toBe('All required fields are filled')
    expect(await s.field('City').getAttribute('aria-label')).toBe('City, required, filled in: Zürich 42')
    expect(await s.field('Extras').getAttribute('aria-label')).toBe('Extras, optional, filled in: Training')
    await signShot(signer.page, 'sign-seq-filled')

    await s.complete()
    await expect.poll(() => s.heading().textContent()).toBe('You signed “Supply contract”')
    expect(await signer.page.getByText('The document is complete once all other recipients have finished.').count()).toBe(1)
    await signShot(signer.page, 'sign-seq-signed')

    // What the service stored: the drawn image (with ink in it), the text, the ticked option.
    const afterSigner = await stack.api('GET', `/envelope/${doc.id}`)
    expect(afterSigner.status).toBe('PENDING')
    expect(recipientOf(afterSigner, 'sofia@example.com')).toMatchObject({ signingStatus: 'SIGNED', readStatus: 'OPENED' })
    expect(recipientOf(afterSigner, 'arno@example.com').signingStatus).toBe('NOT_SIGNED')
    const stored = Object.fromEntries(fieldsOf(afterSigner, sofia.id).map((f: any) => [f.type, f]))
    expect(stored.TEXT).toMatchObject({ inserted: true, customText: 'Zürich 42' })
    expect(JSON.parse(stored.CHECKBOX.customText)).toEqual(['Training'])
    expect(stored.SIGNATURE.customText).toMatch(/^data:image\/png;base64,/)
    expect(await inkPixels(signer.page, stored.SIGNATURE.customText)).toBeGreaterThan(150)

    // Now it is the approver's turn: the same link shows the document and the Approve action.
    await approver.page.reload()
    const a = signing(approver.page)
    await a.ready()
    expect(await a.rejectButton().count()).toBe(1)
    await a.complete('Approve', 'Approve the document?')
    await expect.poll(() => a.heading().textContent()).toBe('You approved “Supply contract”')
    expect(await approver.page.getByText('Everyone has finished: the document is complete.').count()).toBe(1)
    // Sealing runs as a job: the page says so, and offers the signed copy as soon as it answers.
    await approver.page.getByRole('button', { name: 'Download signed PDF “Supply contract.pdf”' }).waitFor({ timeout: SAFETY_NET })
    await signShot(approver.page, 'sign-seq-approved-complete')

    const done = await stack.api('GET', `/envelope/${doc.id}`)
    expect(done.status).toBe('COMPLETED')
    expect(done.completedAt).toEqual(expect.any(String))
    expect(done.recipients.map((r: any) => r.signingStatus)).toEqual(['SIGNED', 'SIGNED'])

    const sealed = await apiBytes(stack, `/envelope/item/${doc.itemId}/download`)
    expect(sealed.status).toBe(200)
    expect(sealed.type).toBe('application/pdf')
    await writeFile(join(SCREENSHOTS, 'sign-seq-sealed.pdf'), sealed.bytes) // to look at
    const check = verifyPdfSignature(sealed.bytes)
    expect(check).toMatchObject({ digestOk: true, signatureOk: true, coversWholeFileExceptContents: true })
    const pages = await pdfText(new Uint8Array(sealed.bytes))
    expect(pages[0]).toContain('Zürich 42')
    expect(sealed.bytes.includes('/Subtype /Image')).toBe(true) // the drawn signature, stamped
    const certificate = pages.at(-1)!
    expect(certificate).toContain('Signing certificate')
    for (const s of ['Sofia Signer', 'sofia@example.com', 'Arno Approver', 'arno@example.com', 'Signed', 'Approved', doc.id]) expect(certificate).toContain(s)
    // The original stays as it was.
    const original = await apiBytes(stack, `/envelope/item/${doc.itemId}/download?version=original`)
    expect((await pdfText(new Uint8Array(original.bytes))).join('\n')).not.toContain('Zürich')

    expect([...signer.errors, ...approver.errors]).toEqual([])
    await signer.context.close()
    await approver.context.close()
  })
})

describe('rejection', () => {
  test('a recipient rejects with a reason; the service and every other link show it', async () => {
    const doc = await sendDocument(stack, {
      title: 'Lease',
      recipients: [
        { email: 'rita@example.com', name: 'Rita Renter', role: 'SIGNER', fields: [sig(10, 80)] },
        { email: 'lars@example.com', name: 'Lars Landlord', role: 'SIGNER', fields: [sig(55, 80)] },
      ],
    })
    const rita = await openPage(stack, doc.recipient('rita@example.com').signingUrl)
    const r = signing(rita.page)
    await r.ready()
    await r.rejectButton().click()
    const dialog = rita.page.getByRole('dialog', { name: 'Reject the document?' })
    // No reason, no rejection.
    await dialog.getByRole('button', { name: 'Reject document' }).click()
    await dialog.getByText('Say why you reject the document.').waitFor()
    const reason = 'The rent in section 4 is not what we agreed on.'
    await dialog.getByRole('textbox', { name: 'Reason' }).fill(reason)
    expect(await dialog.getByText(`${reason.length} / 500`).count()).toBe(1)
    await signShot(rita.page, 'sign-reject-dialog')
    await dialog.getByRole('button', { name: 'Reject document' }).click()
    await expect.poll(() => r.heading().textContent()).toBe('You rejected “Lease”')
    expect(await rita.page.getByRole('blockquote').textContent()).toBe(reason)
    await signShot(rita.page, 'sign-rejected')

    const envelope = await stack.api('GET', `/envelope/${doc.id}`)
    expect(envelope.status).toBe('REJECTED')
    expect(recipientOf(envelope, 'rita@example.com')).toMatchObject({ signingStatus: 'REJECTED', rejectionReason: reason })
    expect(recipientOf(envelope, 'lars@example.com')).toMatchObject({ signingStatus: 'NOT_SIGNED', rejectionReason: null })

    // The other signer's link: the rejection, not the document.
    const lars = await openPage(stack, doc.recipient('lars@example.com').signingUrl)
    await expect.poll(() => signing(lars.page).heading().textContent()).toBe('The document was rejected')
    expect(await lars.page.getByText('“Lease” was rejected by a recipient and can no longer be signed.').count()).toBe(1)
    expect(await lars.page.getByTestId('sign-document').count()).toBe(0)
    await signShot(lars.page, 'sign-rejected-other')

    // Rita's own link later: rejected, with her reason.
    await rita.page.reload()
    await expect.poll(() => r.heading().textContent()).toBe('The document was rejected')
    expect(await rita.page.getByText('You rejected “Lease”.').count()).toBe(1)
    expect(await rita.page.getByRole('blockquote').textContent()).toBe(reason)

    expect([...rita.errors, ...lars.errors]).toEqual([])
    await rita.context.close()
    await lars.context.close()
  })
})

describe('cancelled while the page is open', () => {
  test('completing after the cancel shows the cancelled screen and signs nothing', async () => {
    const doc = await sendDocument(stack, {
      title: 'Old offer',
      recipients: [{ email: 'olga@example.com', name: 'Olga Offer', role: 'SIGNER', fields: [text('Reference', 10, 62), sig(10, 80)] }],
    })
    const olga = await openPage(stack, doc.recipient('olga@example.com').signingUrl)
    const o = signing(olga.page)
    await o.ready()
    await o.typeText('Reference', 'PO-1182')
    await o.typeSignature()
    await expect.poll(() => olga.page.getByTestId('progress').textContent()).toBe('All required fields are filled')

    await stack.api('POST', '/envelope/cancel', { envelopeId: doc.id, reason: 'Superseded' })

    await o.complete()
    await expect.poll(() => o.heading().textContent()).toBe('The document was cancelled')
    expect(await olga.page.getByText('The sender cancelled “Old offer”. There is nothing more to do.').count()).toBe(1)
    expect(await olga.page.getByTestId('sign-state').getAttribute('data-state')).toBe('CANCELLED')
    await signShot(olga.page, 'sign-cancelled-on-complete')
    expect(olga.errors).toEqual([])

    const envelope = await stack.api('GET', `/envelope/${doc.id}`)
    expect(envelope.status).toBe('CANCELLED')
    expect(envelope.completedAt).toBeNull()
    expect(recipientOf(envelope, 'olga@example.com')).toMatchObject({ signingStatus: 'NOT_SIGNED', signedAt: null })
    expect(envelope.fields.map((f: any) => [f.inserted, f.customText || null])).toEqual([[false, null], [false, null]])
    const audit = await stack.api('GET', `/envelope/${doc.id}/audit-log`)
    const types = audit.data.map((e: any) => e.type)
    expect(types).toContain('DOCUMENT_CANCELLED')
    expect(types).not.toContain('DOCUMENT_RECIPIENT_COMPLETED')
    expect((await apiBytes(stack, `/envelope/item/${doc.itemId}/download?version=signed`)).status).toBe(400)
    await olga.context.close()
  })
})

describe('a parallel document', () => {
  test('two signers with their pages open at once, one on a phone; the second completes it', async () => {
    const doc = await sendDocument(stack, {
      title: 'Partnership',
      recipients: [
        { email: 'pia@example.com', name: 'Pia Partner', role: 'SIGNER', fields: [sig(10, 80)] },
        { email: 'paul@example.com', name: 'Paul Partner', role: 'SIGNER', fields: [text('Role', 55, 70), sig(55, 80)] },
      ],
    })
    const [pia, paul] = await Promise.all([
      openPage(stack, doc.recipient('pia@example.com').signingUrl),
      openPage(stack, doc.recipient('paul@example.com').signingUrl, PHONE),
    ])
    const a = signing(pia.page)
    const b = signing(paul.page)
    await Promise.all([a.ready(), b.ready()])
    await signShot(paul.page, 'sign-parallel-ready-phone')

    // Paul, on the phone, goes first: the guide takes him to his fields.
    await paul.page.getByRole('button', { name: 'Next field' }).click()
    await expect.poll(() => b.field('Role').evaluate((el) => el === document.activeElement)).toBe(true)
    await b.typeText('Role', 'Managing partner')
    const draw = await b.drawSignature()
    await signShot(paul.page, 'sign-parallel-draw-phone')
    await draw.adopt()
    await b.complete()
    await expect.poll(() => b.heading().textContent()).toBe('You signed “Partnership”')
    await signShot(paul.page, 'sign-parallel-signed-phone')
    expect((await stack.api('GET', `/envelope/${doc.id}`)).status).toBe('PENDING')

    // Pia's page was open all along and still works.
    await (await a.drawSignature()).adopt()
    await a.complete()
    await expect.poll(() => a.heading().textContent()).toBe('You signed “Partnership”')
    expect(await pia.page.getByText('Everyone has finished: the document is complete.').count()).toBe(1)
    await signShot(pia.page, 'sign-parallel-complete')

    const envelope = await stack.api('GET', `/envelope/${doc.id}`)
    expect(envelope.status).toBe('COMPLETED')
    expect(envelope.recipients.map((r: any) => r.signingStatus)).toEqual(['SIGNED', 'SIGNED'])

    // The done screen's download is the sealed PDF.
    const [download] = await Promise.all([pia.page.waitForEvent('download'), pia.page.getByRole('button', { name: 'Download signed PDF “Partnership.pdf”' }).click()])
    expect(download.suggestedFilename()).toBe('Partnership (signed).pdf')
    const bytes = new Uint8Array(await readFile((await download.path())!))
    expect(verifyPdfSignature(bytes)).toMatchObject({ digestOk: true, signatureOk: true })
    const pages = await pdfText(bytes)
    expect(pages[0]).toContain('Managing partner')
    expect(pages.at(-1)).toContain('Pia Partner')
    expect(pages.at(-1)).toContain('Paul Partner')

    expect([...pia.errors, ...paul.errors]).toEqual([])
    await pia.context.close()
    await paul.context.close()
  })
})
