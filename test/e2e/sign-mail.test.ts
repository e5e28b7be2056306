// Signing from the e-mail: a host that sends through a real SMTP server started here, the
// signing link taken from the message as a recipient's mail client shows it, the document signed
// in Chromium, and the completed message arriving with the sealed PDF attached.
import { afterAll, describe, expect } from 'vitest'
import { pdfText, verifyPdfSignature } from '../support/pdf-signature.js'
import { startInbox, type Inbox } from './support/inbox.js'
import { openPage, sendDocument, sig, signing, signShot } from './support/sign.js'
import { startStack, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'

let inbox: Inbox
let stack: Stack

test.beforeAll(async ({ browser }) => {
  inbox = await startInbox()
  stack = await startStack(browser, { host: { smtpUrl: inbox.url, queuePollMs: 100 } })
})
afterAll(async () => {
  await stack?.close()
  await inbox?.close()
})

const mailsTo = (email: string) => inbox.to(email)

describe('signing from the e-mail', () => {
  test('the request carries the link, the signer signs, everyone gets the sealed PDF', async () => {
    const doc = await sendDocument(stack, {
      title: 'Loan agreement',
      recipients: [
        { email: 'mia@example.com', name: 'Mia Mailer', role: 'SIGNER', fields: [sig(10, 80)] },
        { email: 'carl@example.com', name: 'Carl Copy', role: 'CC' },
      ],
    })

    // The signing request: to Mia only (a CC has nothing to do yet), with her link in the text part.
    await expect.poll(() => mailsTo('mia@example.com').length).toBe(1)
    const request = mailsTo('mia@example.com')[0]!
    expect(request.subject).toBe('Please sign “Loan agreement”')
    expect(request.from?.text).toContain('E2E via')
    expect(request.text).toContain('E2E has sent you “Loan agreement” to sign.')
    const links = [...new Set(request.text!.match(/https?:\/\/[^\s<>()]+\/sign\/[^\s<>()]+/g))]
    expect(links).toEqual([doc.recipient('mia@example.com').signingUrl])
    expect(request.html).toContain(links[0])
    expect(mailsTo('carl@example.com')).toEqual([])

    const mia = await openPage(stack, links[0]!)
    const s = signing(mia.page)
    await s.ready()
    await (await s.drawSignature()).adopt()
    await s.complete()
    await expect.poll(() => s.heading().textContent()).toBe('You signed “Loan agreement”')
    await signShot(mia.page, 'sign-mail-done')
    expect(mia.errors).toEqual([])
    await mia.context.close()

    // The completed message, to the signer and to the CC, with the sealed file.
    await expect.poll(() => [mailsTo('mia@example.com').length, mailsTo('carl@example.com').length]).toEqual([2, 1])
    for (const mail of [mailsTo('mia@example.com')[1]!, mailsTo('carl@example.com')[0]!]) {
      expect(mail.subject).toBe('“Loan agreement” is complete')
      expect(mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([['Loan agreement (signed).pdf', 'application/pdf']])
      const pdf = new Uint8Array(mail.attachments[0]!.content)
      expect(verifyPdfSignature(pdf)).toMatchObject({ digestOk: true, signatureOk: true, coversWholeFileExceptContents: true })
      const certificate = (await pdfText(pdf)).at(-1)!
      for (const s of ['Signing certificate', 'Mia Mailer', 'mia@example.com', 'Carl Copy', 'carl@example.com']) expect(certificate).toContain(s)
    }
    // The attachment is the file the API serves.
    const envelope = await stack.api('GET', `/envelope/${doc.id}`)
    expect(envelope.status).toBe('COMPLETED')
    const served = Buffer.from(await (await fetch(`${stack.host.apiUrl}/envelope/item/${doc.itemId}/download`, { headers: { Authorization: stack.apiToken } })).arrayBuffer())
    expect(Buffer.compare(served, mailsTo('carl@example.com')[0]!.attachments[0]!.content)).toBe(0)
  })
})
