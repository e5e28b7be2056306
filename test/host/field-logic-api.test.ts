/**
 * Conditional fields and formulas through the API: every refusal of a bad condition or formula
 * on every door that writes fields (create, field create/update/delete, a label renamed, the
 * deprecated routes, which otherwise pass fieldMeta through untouched and the deployed SDK
 * still reads); then the server's decision at complete, whatever a page submits (a required field
 * its condition shows, a value in a hidden field, a forged total, a formula that cannot be
 * computed, a condition on an earlier signer's stored value), and the sealed file stamping the
 * server's values. Both databases for the signing (its values are stored and read back by SQL).
 */
import { Documenso } from '@documenso/sdk-typescript'
import { api, form, makePdf, sealed, SIGNATURE } from './support.js'
import { describe, expect, test, type Team } from './fixtures.js'
import type { TestHost } from './support.js'
import { pdfText } from '../support/pdf-signature.js'

const box = (positionY: number, positionX = 10) => ({ page: 1, positionX, positionY, width: 20, height: 5 })
const sig = (y: number) => ({ type: 'SIGNATURE', ...box(y, 60) })
const company = { type: 'CHECKBOX', ...box(5), fieldMeta: { label: 'For a company', options: ['Yes'] } }
const showIfCompany = { effect: 'show', match: 'all', rules: [{ field: 'For a company', test: 'checked' }] }
const number = (label: string, y: number, more: Record<string, unknown> = {}) => ({ type: 'NUMBER', ...box(y), fieldMeta: { label, ...more } })

/** Alice: company box, company name (shown when ticked, then required), quantity, price, total. Bob: VAT number, shown on Alice's tick. */
const ORDER = [
  {
    name: 'Alice',
    email: 'alice@example.com',
    role: 'SIGNER',
    fields: [
      company,
      { type: 'TEXT', ...box(12), fieldMeta: { label: 'Company name', required: true, condition: showIfCompany } },
      number('Quantity', 19),
      number('Price', 26),
      number('Total', 33, { formula: '{Quantity} * {Price}', required: true }),
      sig(80),
    ],
  },
  { name: 'Bob', email: 'bob@example.com', role: 'SIGNER', fields: [{ type: 'TEXT', ...box(40), fieldMeta: { label: 'VAT number', required: true, condition: showIfCompany } }, sig(90)] },
]

const create = async (team: Team, recipients: unknown[]) => team.client.post('/envelope/create', form({ type: 'DOCUMENT', title: 'Order', recipients }, [{ bytes: await makePdf(1), name: 'order.pdf' }]))
const count = async (host: TestHost) => (await host.db.query<{ n: number }>('select count(*)::int as n from envelopes'))[0]!.n

describe('conditions and formulas: refused when they cannot hold, on every door that writes fields', () => {
  test('on create: a missing label, a cycle, a formula on a text field, one past the caps; nothing is written', async ({ team, host }) => {
    const before = await count(host)
    const cases: [unknown[], string, RegExp][] = [
      [[company, { type: 'TEXT', ...box(20), fieldMeta: { condition: { effect: 'show', match: 'all', rules: [{ field: 'Company', test: 'checked' }] } } }], 'payload.recipients.0.fields.1.fieldMeta.condition.rules.0.field', /No field is labelled "Company"/],
      [[number('A', 10, { formula: '{B} + 1' }), number('B', 20, { formula: '{A} * 2' })], 'payload.recipients.0.fields.0.fieldMeta', /circular/i],
      [[{ type: 'TEXT', ...box(10), fieldMeta: { label: 'T', formula: '1 + 1' } }], 'payload.recipients.0.fields.0.fieldMeta.formula', /Only a NUMBER field/],
      [[number('A', 10), number('B', 20, { formula: `{A}${' + 1'.repeat(130)}` })], 'payload.recipients.0.fields.1.fieldMeta.formula', /500|too long/i],
      [[number('A', 10), number('B', 20, { formula: '{A} *' })], 'payload.recipients.0.fields.1.fieldMeta.formula', /character/],
    ]
    for (const [fields, path, message] of cases) {
      const res = await create(team, [{ name: 'Alice', email: 'alice@example.com', role: 'SIGNER', fields }])
      expect(res.status, JSON.stringify(res.body)).toBe(400)
      expect(res.body.issues.some((i: { path: string; message: string }) => i.path.startsWith(path) && message.test(i.message)), JSON.stringify(res.body.issues)).toBe(true)
    }
    expect(await count(host)).toBe(before)
  })

  test('on edits: a new field, a renamed label, a deleted field that another reads; the deprecated routes pass it through and the SDK reads it', async ({ team, host }) => {
    const made = await create(team, ORDER)
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    const e = (await team.client.get(`/envelope/${made.body.id}`)).body
    const byLabel = (label: string) => e.fields.find((f: any) => f.fieldMeta?.label === label)
    expect(byLabel('Total').fieldMeta).toEqual({ type: 'number', label: 'Total', formula: '{Quantity} * {Price}', required: true })
    expect(byLabel('Company name').fieldMeta.condition).toEqual(showIfCompany)

    const added = await team.client.post('/envelope/field/create-many', {
      envelopeId: e.id,
      data: [{ recipientId: e.recipients[0].id, type: 'NUMBER', ...box(50), fieldMeta: { label: 'Tax', formula: '{Totl} * 0.2' } }],
    })
    expect(added.status).toBe(400)
    expect(added.body.issues[0]).toMatchObject({ path: 'data.0.fieldMeta.formula', message: expect.stringContaining('"Totl"') })

    const renamed = await team.client.post('/envelope/field/update-many', { envelopeId: e.id, data: [{ id: byLabel('Price').id, fieldMeta: { label: 'Unit price' } }] })
    expect(renamed.status).toBe(400)
    expect(renamed.body.issues[0]).toMatchObject({ path: `fields.${byLabel('Total').id}.fieldMeta.formula`, message: expect.stringMatching(/^Field \d+ \("Total"\): No field is labelled "Price"/) })

    const deleted = await team.client.post('/envelope/field/delete', { fieldId: byLabel('For a company').id })
    expect(deleted.status).toBe(400)
    expect((await team.client.get(`/envelope/${e.id}`)).body.fields).toHaveLength(e.fields.length)

    // The deprecated routes store and answer fieldMeta as given, and refuse what cannot hold (API v1 takes the same operations).
    const legacy = await team.client.post('/document/field/create', { documentId: e.recipients[0].documentId, field: { type: 'NUMBER', recipientId: e.recipients[0].id, pageNumber: 1, pageX: 50, pageY: 60, width: 10, height: 5, fieldMeta: { label: 'Double', formula: '{Total} * 2' } } })
    expect(legacy.status, JSON.stringify(legacy.body)).toBe(200)
    expect(legacy.body.fieldMeta).toEqual({ type: 'number', label: 'Double', formula: '{Total} * 2' })
    const refused = await team.client.post('/document/field/update', { documentId: e.recipients[0].documentId, field: { id: legacy.body.id, type: 'NUMBER', fieldMeta: { label: 'Double', formula: '{Nothing} * 2' } } })
    expect(refused.status, JSON.stringify(refused.body)).toBe(400)
    expect(refused.body.issues[0].message).toContain('No field is labelled "Nothing"')

    const sdk = new Documenso({ serverURL: host.apiUrl, apiKey: team.token })
    const read = await sdk.envelopes.get({ envelopeId: e.id })
    expect(read.fields.length).toBe(e.fields.length + 1)
    expect(read.fields.find((f) => f.fieldMeta?.label === 'Total')?.fieldMeta).toMatchObject({ type: 'number', label: 'Total' })
  })
})

/** Sends ORDER; each recipient's signing API and their fields by label. */
async function sent(team: Team, host: TestHost) {
  const made = await create(team, ORDER)
  const out = await team.client.post('/envelope/distribute', { envelopeId: made.body.id })
  expect(out.status, JSON.stringify(out.body)).toBe(200)
  const signer = async (i: number) => {
    const client = api(`${host.url}/api/signing`, `Bearer ${out.body.recipients[i].token}`)
    const session = (await client.get('/session')).body
    const id = (label: string) => session.fields.find((f: any) => f.fieldMeta?.label === label)?.id ?? session.fields.find((f: any) => f.type === label).id
    return { client, id }
  }
  return { envelopeId: made.body.id as string, alice: await signer(0), bob: await signer(1) }
}

for (const variant of ['pglite', 'postgres'] as const) {
  describe(`the server decides at complete (${variant})`, () => {
    test.override({ variant })

    test('a required field its condition shows, a hidden field with a value, a forged total: refused, naming the field; the server computes the total; a later signer meets the earlier one\'s tick; the seal shows the server\'s values', async ({ team, host }) => {
      const { envelopeId, alice, bob } = await sent(team, host)
      const value = (label: string, v: unknown) => ({ id: alice.id(label), value: v })
      const base = [value('Quantity', '3'), value('Price', '2,5'), value('SIGNATURE', SIGNATURE)]

      const refusals: [unknown[], RegExp][] = [
        [[...base, value('For a company', ['Yes'])], /Field \d+ \(text\) is required/],
        [[...base, value('Company name', 'Globex')], /"Company name"\) is hidden by its condition/],
        [[...base, value('For a company', ['Yes']), value('Company name', 'Globex'), value('Total', '100')], /"Total"\) is computed: its value is 7.5, not 100/],
      ]
      for (const [fields, message] of refusals) {
        const res = await alice.client.post('/complete', { fields })
        expect(res.status, JSON.stringify(res.body)).toBe(400)
        expect(res.body.issues.map((i: { message: string }) => i.message).join('\n')).toMatch(message)
      }
      // The total left out is the server's; one given equal (7.50) is taken.
      const done = await alice.client.post('/complete', { fields: [...base, value('For a company', ['Yes']), value('Company name', 'Globex'), value('Total', '7.50')] })
      expect(done.status, JSON.stringify(done.body)).toBe(200)

      // Bob's VAT number is shown by Alice's stored tick: required now.
      const missing = await bob.client.post('/complete', { fields: [{ id: bob.id('SIGNATURE'), value: SIGNATURE }] })
      expect(missing.status).toBe(400)
      const finished = await bob.client.post('/complete', { fields: [{ id: bob.id('SIGNATURE'), value: SIGNATURE }, { id: bob.id('VAT number'), value: 'VAT-4711' }] })
      expect(finished.status, JSON.stringify(finished.body)).toBe(200)

      const e = (await team.client.get(`/envelope/${envelopeId}`)).body
      expect(e.fields.find((f: any) => f.fieldMeta?.label === 'Total').customText).toBe('7.5')
      await sealed(host, envelopeId)
      const pdf = (await team.client.get(`/envelope/item/${e.envelopeItems[0].id}/download`)).body as Uint8Array
      const [text] = await pdfText(pdf)
      for (const shown of ['7.5', 'Globex', 'VAT-4711']) expect(text).toContain(shown)
    })

    test('a formula that cannot be computed is refused by name; an unticked box leaves its fields hidden, unrequired and unstamped', async ({ team, host }) => {
      const made = await create(team, [
        { name: 'Alice', email: 'alice@example.com', role: 'SIGNER', fields: [number('Count', 10), number('Share', 20, { formula: '100 / {Count}', required: true }), company, { type: 'TEXT', ...box(40), fieldMeta: { label: 'Company name', required: true, condition: showIfCompany } }, sig(80)] },
      ])
      const out = await team.client.post('/envelope/distribute', { envelopeId: made.body.id })
      const alice = api(`${host.url}/api/signing`, `Bearer ${out.body.recipients[0].token}`)
      const session = (await alice.get('/session')).body
      const id = (label: string) => session.fields.find((f: any) => f.fieldMeta?.label === label || f.type === label).id
      const zero = await alice.post('/complete', { fields: [{ id: id('Count'), value: '0' }, { id: id('SIGNATURE'), value: SIGNATURE }] })
      expect(zero.status).toBe(400)
      expect(zero.body.issues[0].message).toMatch(/"Share"\) cannot be computed: Division by zero/)
      const ok = await alice.post('/complete', { fields: [{ id: id('Count'), value: '8' }, { id: id('SIGNATURE'), value: SIGNATURE }] })
      expect(ok.status, JSON.stringify(ok.body)).toBe(200)
      const e = (await team.client.get(`/envelope/${made.body.id}`)).body
      const stored = (label: string) => e.fields.find((f: any) => f.fieldMeta?.label === label)
      expect(stored('Share').customText).toBe('12.5')
      expect(stored('Company name')).toMatchObject({ inserted: false, customText: '' })
    })
  })
}

describe('templates keep conditions and formulas', () => {
  test('a document made from a template has them; a prefilled tick takes part; a computed field cannot be filled in ahead', async ({ team, host }) => {
    const t = await team.client.post('/envelope/create', form({ type: 'TEMPLATE', title: 'Order', recipients: [{ ...ORDER[0], email: '', name: 'Buyer' }] }, [{ bytes: await makePdf(1), name: 'order.pdf' }]))
    expect(t.status, JSON.stringify(t.body)).toBe(200)
    const template = (await team.client.get(`/envelope/${t.body.id}`)).body
    const field = (label: string) => template.fields.find((f: any) => f.fieldMeta?.label === label)
    const use = (prefillFields: unknown[]) =>
      team.client.post('/envelope/use', form({ envelopeId: template.id, recipients: [{ id: template.recipients[0].id, email: 'buyer@example.com', name: 'Buyer' }], prefillFields, distributeDocument: true }, []))
    const computed = await use([{ id: field('Total').id, type: 'number', value: '1' }])
    expect(computed.status).toBe(400)
    expect(computed.body.issues[0]).toMatchObject({ path: 'payload.prefillFields.0.id', message: expect.stringContaining('computed by its formula') })

    const made = await use([{ id: field('For a company').id, type: 'checkbox', value: ['Yes'] }])
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    const doc = (await team.client.get(`/envelope/${made.body.id}`)).body
    expect(doc.fields.map((f: any) => f.fieldMeta?.condition ?? f.fieldMeta?.formula ?? null)).toEqual(template.fields.map((f: any) => f.fieldMeta?.condition ?? f.fieldMeta?.formula ?? null))
    const buyer = api(`${host.url}/api/signing`, `Bearer ${made.body.recipients[0].token}`)
    const session = (await buyer.get('/session')).body
    const id = (label: string) => session.fields.find((f: any) => f.fieldMeta?.label === label || f.type === label).id
    // The prefilled tick shows "Company name", which is then required.
    const res = await buyer.post('/complete', { fields: [{ id: id('Quantity'), value: '2' }, { id: id('Price'), value: '4' }, { id: id('SIGNATURE'), value: SIGNATURE }] })
    expect(res.status).toBe(400)
    expect(res.body.issues.map((i: { message: string }) => i.message).join()).toMatch(/Field \d+ \(text\) is required/)
  })
})
