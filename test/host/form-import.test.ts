/**
 * A PDF's own form fields as envelope fields, through every upload door of API v2: the question
 * before anything is stored (`POST /pdf/form-fields`, the editor's), the create option and the
 * new items' option; then a document made so is signed and sealed with the values stamped and no
 * form left. Database: the embedded one (nothing here is SQL of its own: the fields are written
 * by the operations every other test holds on both).
 */
import { readFile } from 'node:fs/promises'
import { PDFDocument, PDFName } from '@cantoo/pdf-lib'
import { test, describe, expect } from './fixtures.js'
import { api, form, makePdf, sealed, SIGNATURE } from './support.js'
import { everyKind, LIBREOFFICE_FORM } from './form-files/forms.js'
import { PdfFormFieldsAnswer } from '../../host/server/contract/answers.js'
import { hasTool, pdfsig } from '../support/outside-checks.js'
import { pdfText, verifyPdfSignature } from '../support/pdf-signature.js'

const files = async () => [
  { bytes: await everyKind(), name: 'order.pdf' },
  { bytes: await readFile(LIBREOFFICE_FORM), name: 'supplier.pdf' },
]
const signer = { name: 'Jana', email: 'jana@example.com', role: 'SIGNER' }
const seller = { name: 'Sam', email: 'sam@example.com', role: 'SIGNER' }

/** The fields as an envelope holds them, without ids, in the order stored. */
const shapes = (fields: any[]) => fields.map(({ type, page, fieldMeta }: any) => ({ type, page, label: fieldMeta?.label, options: fieldMeta?.options }))

const EVERY_KIND = [
  { type: 'TEXT', page: 1, label: 'Company name', options: undefined },
  { type: 'CHECKBOX', page: 1, label: 'I agree', options: ['I agree'] },
  { type: 'RADIO', page: 2, label: 'Size', options: ['Small', 'Large'] },
  { type: 'DROPDOWN', page: 2, label: 'Country', options: ['France', 'Germany'] },
  { type: 'DROPDOWN', page: 2, label: 'Colours', options: ['Red', 'Blue'] },
]

describe('form fields offered as envelope fields', () => {
  test('the question before storing: every file with its fields, typed and labelled; nothing is stored', async ({ team, host }) => {
    const before = await host.db.query('select count(*)::int as n from document_data')
    // No payload part is needed; no file is refused.
    const res = await team.client.post('/pdf/form-fields', new FormData())
    expect(res.status).toBe(400)
    expect(res.body.issues?.[0]?.path).toBe('files')

    const answer = await team.client.post('/pdf/form-fields', form({}, await files()))
    expect(answer.status).toBe(200)
    // Exactly as declared (contract/answers.ts): the schema parses it to itself.
    for (const file of answer.body.data) expect(PdfFormFieldsAnswer.parse(file)).toEqual(file)
    const [order, supplier] = answer.body.data
    expect(order).toMatchObject({ name: 'order.pdf', pageCount: 2 })
    expect(shapes(order.fields)).toEqual(EVERY_KIND)
    // As the editor writes fieldMeta; the form's requirement kept.
    expect(order.fields[0]).toEqual({ type: 'TEXT', page: 1, positionX: 10, positionY: 5, width: 50, height: 5, fieldMeta: { type: 'text', label: 'Company name', required: true } })
    expect(shapes(supplier.fields).map((f) => f.label)).toEqual(['Company', 'Agree', 'Country', 'Size'])
    expect((await host.db.query('select count(*)::int as n from document_data'))[0]).toEqual(before[0])

    // A PDF without a form: no fields; not a PDF: the upload check's answer.
    const plain = await team.client.post('/pdf/form-fields', form({}, [{ bytes: await makePdf(1), name: 'plain.pdf' }]))
    expect(plain.body.data).toEqual([{ name: 'plain.pdf', pageCount: 1, fields: [] }])
    const junk = await team.client.post('/pdf/form-fields', form({}, [{ bytes: new TextEncoder().encode('hello'), name: 'a.pdf' }]))
    expect(junk.status).toBe(400)
    expect(junk.body.code).toBe('INVALID_PDF')
  })

  test('creating with importFormFields: every file\'s form fields become the named recipient\'s, beside the payload\'s own', async ({ team }) => {
    const res = await team.client.post(
      '/envelope/create',
      form(
        {
          type: 'TEMPLATE',
          title: 'Order',
          recipients: [seller, { ...signer, fields: [{ identifier: 1, type: 'SIGNATURE', page: 1, positionX: 10, positionY: 80, width: 30, height: 8 }] }],
          importFormFields: { recipient: 1 },
        },
        await files(),
      ),
    )
    expect(res.status).toBe(200)
    const e = (await team.client.get(`/envelope/${res.body.id}`)).body
    const [sam, jana] = e.recipients
    const [order, supplier] = [...e.envelopeItems].sort((a: any, b: any) => a.order - b.order)
    expect(e.fields.every((f: any) => f.recipientId === jana.id)).toBe(true)
    expect(e.fields.some((f: any) => f.recipientId === sam.id)).toBe(false)
    expect(shapes(e.fields.filter((f: any) => f.envelopeItemId === order.id))).toEqual(EVERY_KIND)
    // The payload's own signature first, then the form's four.
    expect(shapes(e.fields.filter((f: any) => f.envelopeItemId === supplier.id)).map((f) => f.label)).toEqual([undefined, 'Company', 'Agree', 'Country', 'Size'])
  })

  test('a recipient index with no recipient is refused, naming it, and nothing is made', async ({ team }) => {
    const listed = async () => (await team.client.get('/envelope?type=DOCUMENT')).body.count
    const before = await listed()
    for (const payload of [{ recipients: [signer], importFormFields: { recipient: 1 } }, { importFormFields: { recipient: 0 } }]) {
      const res = await team.client.post('/envelope/create', form({ type: 'DOCUMENT', ...payload }, await files()))
      expect(res.status).toBe(400)
      expect(res.body.issues).toEqual([expect.objectContaining({ path: 'payload.importFormFields.recipient' })])
    }
    const typo = await team.client.post('/envelope/create', form({ type: 'DOCUMENT', recipients: [signer], importFormFields: { recipient: 0, all: true } }, await files()))
    expect(typo.status).toBe(400)
    expect(await listed()).toBe(before)
  })

  test('new items with importFormFields: the form fields go to that recipient on the new item; an unknown recipient adds nothing', async ({ team }) => {
    const created = await team.client.post('/envelope/create', form({ type: 'DOCUMENT', recipients: [signer] }, [{ bytes: await makePdf(1), name: 'cover.pdf' }]))
    const id = created.body.id
    const { recipients } = (await team.client.get(`/envelope/${id}`)).body
    const refused = await team.client.post('/envelope/item/create-many', form({ envelopeId: id, importFormFields: { recipientId: recipients[0].id + 1000 } }, await files()))
    expect(refused.status).toBe(400)
    expect(refused.body.issues[0].path).toBe('payload.importFormFields.recipientId')
    expect((await team.client.get(`/envelope/${id}`)).body.envelopeItems).toHaveLength(1)

    const added = await team.client.post('/envelope/item/create-many', form({ envelopeId: id, importFormFields: { recipientId: recipients[0].id } }, [{ bytes: await everyKind(), name: 'order.pdf' }]))
    expect(added.status).toBe(200)
    const e = (await team.client.get(`/envelope/${id}`)).body
    expect(shapes(e.fields)).toEqual(EVERY_KIND)
    expect(e.fields.every((f: any) => f.envelopeItemId === added.body.data[0].id && f.recipientId === recipients[0].id)).toBe(true)
  })

  test('signed and sealed: the values are stamped in place of the form\'s, no form field is left to edit, and the seal is valid', async ({ team, host }) => {
    const res = await team.client.post('/envelope/create', form({ type: 'DOCUMENT', title: 'Order', recipients: [{ ...signer, fields: [{ type: 'SIGNATURE', page: 2, positionX: 10, positionY: 80, width: 30, height: 8 }] }], importFormFields: { recipient: 0 } }, [{ bytes: await everyKind(), name: 'order.pdf' }]))
    const sent = await team.client.post('/envelope/distribute', { envelopeId: res.body.id })
    expect(sent.status, JSON.stringify(sent.body)).toBe(200)
    const recipient = api(`${host.url}/api/signing`, `Bearer ${sent.body.recipients[0].token}`)
    const session = (await recipient.get('/session')).body
    const value = (f: any) =>
      f.type === 'DROPDOWN' ? f.fieldMeta.options[0] : { TEXT: 'Globex Corporation', CHECKBOX: ['I agree'], RADIO: 'Small', SIGNATURE }[f.type as string]
    const done = await recipient.post('/complete', { fields: session.fields.map((f: any) => ({ id: f.id, value: value(f) })) })
    expect(done.status, JSON.stringify(done.body)).toBe(200)
    await sealed(host, res.body.id)
    const itemId = (await team.client.get(`/envelope/${res.body.id}`)).body.envelopeItems[0].id
    const pdf = (await team.client.get(`/envelope/item/${itemId}/download`)).body as Uint8Array

    const [first, second] = await pdfText(pdf)
    // The signer's value, where the form's own ("Acme") is no longer drawn.
    expect(first).toContain('Globex Corporation')
    expect(first).not.toContain('Acme')
    expect(second).toContain('Small')
    expect(second).toContain('France')
    // The form is gone: only the seal's own signature field is left.
    const doc = await PDFDocument.load(pdf)
    expect(doc.getForm().getFields().map((f) => f.constructor.name)).toEqual(['PDFSignature'])
    expect(doc.catalog.has(PDFName.of('AcroForm'))).toBe(true)
    expect(verifyPdfSignature(pdf)).toMatchObject({ digestOk: true, signatureOk: true, coversWholeFileExceptContents: true })
    if (hasTool('pdfsig')) expect(pdfsig(pdf)).toContain('Signature is Valid.')
  })
})
