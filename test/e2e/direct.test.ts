// A template's direct link, as a visitor uses it: embedded with this library's EmbedDirectTemplate
// and with the deployed service's, and the shared /d/{token} page on a phone. Each signature makes a
// document from the template, signed first by the visitor and sent on to the next recipient.
import { afterAll, describe, expect } from 'vitest'
import { makePdf } from './support/pdf.js'
import { openPage, PHONE, sig, signing, signShot, text, type FieldIn } from './support/sign.js'
import { callback, events, mount, mountDeployed, startStack, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'

let stack: Stack
test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
})
afterAll(() => stack?.close())

const nameField: FieldIn = { type: 'NAME', page: 1, positionX: 10, positionY: 20, width: 30, height: 4 }

/** A template whose visitor gives a name, a company and a signature; a manager countersigns. Returns its direct link. */
async function linkedTemplate(title: string) {
  const form = new FormData()
  form.append(
    'payload',
    JSON.stringify({
      type: 'TEMPLATE',
      title,
      meta: { signingOrder: 'SEQUENTIAL' },
      recipients: [
        { email: 'manager@example.com', name: 'Manager', role: 'SIGNER', signingOrder: 1, fields: [sig(55, 80)] },
        { email: 'visitor@example.com', name: 'Visitor', role: 'SIGNER', signingOrder: 2, fields: [nameField, text('Company', 10, 40), sig(10, 80)] },
      ],
    }),
  )
  form.append('files', new Blob([new Uint8Array(await makePdf(title, 1))], { type: 'application/pdf' }), `${title}.pdf`)
  const { id } = await stack.api<{ id: string }>('POST', '/envelope/create', form)
  const t = await stack.api('GET', `/envelope/${id}`)
  const visitor = t.recipients.find((r: any) => r.email === 'visitor@example.com')
  const link = await stack.api('POST', '/template/direct/create', { templateId: Number(t.secondaryId.split('_')[1]), directRecipientId: visitor.id })
  return { template: t, link }
}

/** The document the link made, checked to be signed by the visitor and waiting for the manager. */
async function madeDocument(envelopeId: string, visitor: { name: string; email: string }, externalId: string | null) {
  const d = await stack.api('GET', `/envelope/${envelopeId}`)
  expect(d).toMatchObject({ type: 'DOCUMENT', status: 'PENDING', source: 'TEMPLATE_DIRECT_LINK', externalId })
  expect(d.recipients.find((r: any) => r.email === visitor.email)).toMatchObject({ name: visitor.name, signingStatus: 'SIGNED', signingOrder: 1 })
  expect(d.recipients.find((r: any) => r.email === 'manager@example.com')).toMatchObject({ signingStatus: 'NOT_SIGNED', sendStatus: 'SENT' })
  return d
}

describe('template direct links', () => {
  test('EmbedDirectTemplate: the visitor fills and signs, confirms who they are, and the parent hears of the new document', async () => {
    const { link } = await linkedTemplate('Membership')
    const { page, frame } = await mount(stack, 'EmbedDirectTemplate', { token: link.token, externalId: 'crm-42', email: 'vera@example.com', lockEmail: true })
    const s = signing(page, frame)
    await s.ready()
    await callback(page, 'onDocumentReady')
    expect(await frame.getByText('Fill in and sign. You give your name and e-mail address when you finish.').count()).toBe(1)
    // There is nothing to reject before a document exists.
    expect(await s.rejectButton().count()).toBe(0)

    await s.typeText('Name', 'Vera Visitor')
    await s.typeText('Company', 'Acme')
    await (await s.drawSignature()).adopt()
    await signShot(page, 'direct-embed-filled')
    await s.action('Complete signing').click()
    const dialog = frame.getByRole('dialog', { name: 'Sign the document?' })
    const details = dialog.getByRole('group', { name: 'Your details' })
    expect(await details.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('Vera Visitor')
    const email = details.getByRole('textbox', { name: 'E-mail' })
    expect([await email.inputValue(), await email.getAttribute('readonly')]).toEqual(['vera@example.com', ''])
    await signShot(page, 'direct-embed-confirm')
    await dialog.getByRole('button', { name: 'Complete signing', exact: true }).click()
    await expect.poll(() => s.heading().textContent()).toBe('You signed “Membership”')

    const completed = await callback(page, 'onDocumentCompleted')
    expect(completed).toEqual({ token: expect.any(String), documentId: expect.any(Number), recipientId: expect.any(Number), envelopeId: expect.stringMatching(/^envelope_/) })
    const d = await madeDocument(completed.envelopeId, { name: 'Vera Visitor', email: 'vera@example.com' }, 'crm-42')
    expect(d.recipients.find((r: any) => r.email === 'vera@example.com')).toMatchObject({ id: completed.recipientId, token: completed.token })
    // Name, company and signature each told the parent once.
    const names = (await events(page)).map((e) => e.name)
    expect(names.filter((n) => n === 'onFieldSigned')).toHaveLength(3)
    expect(names).not.toContain('onDocumentError')
    await signShot(page, 'direct-embed-done')

    // The link stays: a second visitor makes a second document.
    expect((await stack.api('GET', `/envelope/${d.id}`)).id).not.toBe(link.envelopeId)
  })

  test("the deployed service's EmbedDirectTemplate, unmodified, against this host", async () => {
    const { link } = await linkedTemplate('Waiver')
    const { page, frame } = await mountDeployed(stack, 'EmbedDirectTemplate', { token: link.token, name: 'Dana Deployed', email: 'dana@example.com', externalId: 'ext-9' })
    const s = signing(page, frame)
    await s.ready()
    await callback(page, 'onDocumentReady')
    await s.typeText('Company', 'Initech')
    await (await s.drawSignature()).adopt()
    await callback(page, 'onFieldSigned')
    await s.complete()
    await expect.poll(() => s.heading().textContent()).toBe('You signed “Waiver”')
    const completed = await callback(page, 'onDocumentCompleted')
    await madeDocument(completed.envelopeId, { name: 'Dana Deployed', email: 'dana@example.com' }, 'ext-9')
  })

  test('the shared /d/{token} page on a phone: the visitor types their details in the confirmation', async () => {
    const { link } = await linkedTemplate('Volunteer form')
    const { page, context, errors } = await openPage(stack, `${stack.host.url}/d/${link.token}`, PHONE)
    try {
      const s = signing(page)
      await s.ready()
      await signShot(page, 'direct-phone-ready')
      await s.typeText('Name', 'Paul Phone')
      await s.typeText('Company', 'Self')
      await s.typeSignature()
      await s.action('Complete signing').click()
      const dialog = page.getByRole('dialog', { name: 'Sign the document?' })
      const email = dialog.getByRole('textbox', { name: 'E-mail' })
      // No e-mail yet: the dialog says so and keeps the visitor there.
      await dialog.getByRole('button', { name: 'Complete signing', exact: true }).click()
      await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true')
      await email.fill('paul@example.com')
      await signShot(page, 'direct-phone-confirm')
      await dialog.getByRole('button', { name: 'Complete signing', exact: true }).click()
      await expect.poll(() => s.heading().textContent()).toBe('You signed “Volunteer form”')
      await signShot(page, 'direct-phone-done')
      const docs = await stack.api('GET', '/envelope?perPage=100')
      const made = docs.data.find((d: any) => d.source === 'TEMPLATE_DIRECT_LINK' && d.recipients.some((r: any) => r.email === 'paul@example.com'))
      await madeDocument(made.id, { name: 'Paul Phone', email: 'paul@example.com' }, null)
      expect(errors).toEqual([])

      // Turned off, the link shows the invalid-link screen.
      await stack.api('POST', '/template/direct/toggle', { templateId: link.templateId, enabled: false })
      await page.goto(`${stack.host.url}/d/${link.token}`)
      await page.getByTestId('sign-error').waitFor()
      expect(await page.getByTestId('sign-error').getAttribute('data-state')).toBe('INVALID_LINK')
      await signShot(page, 'direct-phone-disabled')
    } finally {
      await context.close()
    }
  })
})
