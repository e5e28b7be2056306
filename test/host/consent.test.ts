/**
 * Consent to sign electronically: required before completing, recorded once with the version and
 * hash of the text shown; a team's own text versioned; withdrawal; direct links; the certificate.
 * Database: the embedded one (API rules), on the worker's shared host, in a team of its own.
 */
import { createHash } from 'node:crypto'
import { defaultDisclosure } from '../../host/server/consent/disclosure-text.js'
import { pdfText } from '../support/pdf-signature.js'
import { describe, expect, newTeam, test } from './fixtures.js'
import { api, createEnvelope, sealed, SIGNATURE, type Api, type TestHost } from './support.js'

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')
const de = defaultDisclosure('de').text
const en = defaultDisclosure('en').text
const box = { page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }

describe('consent to sign electronically on pglite', () => {
  let host: TestHost
  let client: Api

  // The tests follow one another on the team's disclosure: one team for the file.
  test.beforeAll(async ({ hosts }) => {
    host = await hosts.on('pglite')
    client = (await newTeam(host, { name: 'Consent Co' })).client
  })

  /** A sent one-signer document: the signer's signing client, which never consents on its own. */
  async function sent(meta: object = {}) {
    const e = await createEnvelope(client, { meta, recipients: [{ name: 'Ann', email: 'ann@example.com', role: 'SIGNER', fields: [{ ...box, type: 'SIGNATURE' }] }] })
    const out = await client.post('/envelope/distribute', { envelopeId: e.id })
    const token = out.body.recipients[0].token as string
    const s = api(`${host.url}/api/signing`, `Bearer ${token}`, { consent: false })
    const fields = (await s.get('/session')).body.fields.map((f: any) => ({ id: f.id, value: SIGNATURE }))
    return { e, s, fields, recipientId: out.body.recipients[0].id as number }
  }
  const consents = async (envelopeId: string) =>
    host.db.query<{ data: any; ip_address: string | null; user_agent: string | null; recipient_id: number }>(
      `select data, ip_address, user_agent, recipient_id from audit_logs where envelope_id = $1 and type = 'RECIPIENT_CONSENT_GIVEN' order by id`,
      [envelopeId],
    )

  test('refuses to complete without consent, then records it with the version and the hash of the text shown, once', async () => {
    const { e, s, fields, recipientId } = await sent({ language: 'de' })
    const refused = await s.post('/complete', { fields })
    expect([refused.status, refused.body.code, typeof refused.body.message]).toEqual([403, 'CONSENT_REQUIRED', 'string'])
    expect((await host.db.query(`select status from envelopes where id = $1`, [e.id]))[0]).toEqual({ status: 'PENDING' })

    const before = (await s.get('/consent')).body
    expect(before).toMatchObject({ given: false, disclosure: { version: 0, text: null } })
    // The service sends the default words: in the document's language, else in the one asked for.
    expect(before.disclosure.default).toEqual({ edition: 1, language: 'de', text: de, sha256: sha(de) })
    expect((await s.get('/consent?language=fr-CA')).body.disclosure.default).toMatchObject({ language: 'fr', text: defaultDisclosure('fr').text })
    expect((await s.get(`/consent?language=${'x'.repeat(100)}`)).body.disclosure.default.language).toBe('en')
    // A page that shows other words than the service's is refused: the hash must be of the text shown.
    const other = await s.post('/consent', { version: 0, language: 'de', sha256: sha(en) })
    expect([other.status, other.body.code]).toEqual([409, 'DISCLOSURE_CHANGED'])
    // The page shows the default in its own language: the hash is that text's.
    const given = await s.post('/consent', { version: 0, language: 'de', sha256: sha(de) }, { 'User-Agent': 'ConsentBrowser/1.0' })
    expect(given.status).toBe(200)
    expect(given.body.consent).toMatchObject({ disclosureVersion: 0, disclosureHash: sha(de) })
    expect(sha(de)).not.toBe(sha(en))
    // Asked again (another tab), nothing new is written; the page is told it was given.
    expect((await s.post('/consent', { version: 0, language: 'en' })).status).toBe(200)
    expect((await s.get('/consent')).body).toMatchObject({ given: true, consent: { disclosureVersion: 0 } })
    const rows = await consents(e.id)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ recipient_id: recipientId, user_agent: 'ConsentBrowser/1.0', data: { recipientId, disclosureVersion: 0, disclosureHash: sha(de) } })
    expect(rows[0]!.ip_address).toBeTruthy()

    expect((await s.post('/complete', { fields })).status).toBe(200)
    // The trail through the API lists it, before the signature.
    const types = (await client.get(`/envelope/${e.id}/audit-log?perPage=100&include=all`)).body.data.map((x: any) => x.type)
    expect(types.indexOf('RECIPIENT_CONSENT_GIVEN')).toBeGreaterThan(-1)
    expect(types.indexOf('RECIPIENT_CONSENT_GIVEN')).toBeLessThan(types.indexOf('DOCUMENT_RECIPIENT_COMPLETED'))
  })

  test("a team's own text is a new version on each change; a consent to an older version is refused", async () => {
    const first = await sent()
    expect((await client.get('/team/consent-disclosure')).body).toMatchObject({ version: 0, text: null })
    const v1 = await client.post('/team/consent-disclosure', { text: 'Our terms for signing electronically, version one.' })
    expect(v1.status).toBe(200)
    expect(v1.body).toMatchObject({ version: 1, text: 'Our terms for signing electronically, version one.', sha256: sha('Our terms for signing electronically, version one.') })
    // The same text again changes nothing.
    expect((await client.post('/team/consent-disclosure', { text: 'Our terms for signing electronically, version one.' })).body.version).toBe(1)

    const stale = await first.s.post('/consent', { version: 0 })
    expect([stale.status, stale.body.code]).toEqual([409, 'DISCLOSURE_CHANGED'])
    expect((await first.s.get('/consent')).body).toMatchObject({ given: false, disclosure: { version: 1, text: 'Our terms for signing electronically, version one.' } })
    expect((await first.s.get('/consent')).body.disclosure.default).toBeUndefined()
    expect((await first.s.post('/consent', { version: 1 })).body.consent).toMatchObject({ disclosureVersion: 1, disclosureHash: sha('Our terms for signing electronically, version one.') })

    const v2 = await client.post('/team/consent-disclosure', { text: 'Version two.' })
    expect(v2.body).toMatchObject({ version: 2, sha256: sha('Version two.') })
    const second = await sent()
    expect((await second.s.post('/consent', { version: 1 })).body.code).toBe('DISCLOSURE_CHANGED')
    expect((await second.s.post('/consent', { version: 2 })).body.consent.disclosureVersion).toBe(2)
    // Back to the default: a new version whose text is the page's.
    const v3 = await client.post('/team/consent-disclosure', { text: null })
    expect(v3.body).toMatchObject({ version: 3, text: null, sha256: null })
    const third = await sent()
    expect((await third.s.post('/consent', { version: 3, language: 'en' })).body.consent).toMatchObject({ disclosureVersion: 3, disclosureHash: sha(en) })
    // Once consented, the recipient is not asked again, even after a change.
    await client.post('/team/consent-disclosure', { text: 'Version four.' })
    expect((await first.s.get('/consent')).body.given).toBe(true)
    expect((await first.s.post('/complete', { fields: first.fields })).status).toBe(200)
    // A visitor of a direct link sees the current one too; no body, no change.
    expect((await client.post('/team/consent-disclosure', {})).status).toBe(400)
    await client.post('/team/consent-disclosure', { text: null })
  })

  test('withdrawing consent is a rejection with that reason and consentWithdrawn', async () => {
    const { e, s, recipientId } = await sent()
    const out = await s.post('/consent/withdraw', { reason: 'Einwilligung in die elektronische Unterzeichnung widerrufen' })
    expect(out.status).toBe(200)
    const [r] = await host.db.query<{ signing_status: string; rejection_reason: string }>('select signing_status, rejection_reason from recipients where id = $1', [recipientId])
    expect(r).toEqual({ signing_status: 'REJECTED', rejection_reason: 'Einwilligung in die elektronische Unterzeichnung widerrufen' })
    const [entry] = await host.db.query<{ data: any }>(`select data from audit_logs where envelope_id = $1 and type = 'DOCUMENT_RECIPIENT_REJECTED'`, [e.id])
    expect(entry!.data).toMatchObject({ consentWithdrawn: true, reason: 'Einwilligung in die elektronische Unterzeichnung widerrufen', recipientId })
    expect((await host.db.query('select status from envelopes where id = $1', [e.id]))[0]).toEqual({ status: 'REJECTED' })
    // Without a reason of its own, the service says it.
    const other = await sent()
    expect((await other.s.post('/consent/withdraw', {})).body.reason).toBe('Consent to sign electronically withdrawn')
    // A plain rejection is not a withdrawal.
    const plain = await sent()
    await plain.s.post('/reject', { reason: 'Wrong amount' })
    const [p] = await host.db.query<{ data: any }>(`select data from audit_logs where envelope_id = $1 and type = 'DOCUMENT_RECIPIENT_REJECTED'`, [plain.e.id])
    expect(p!.data.consentWithdrawn).toBeUndefined()
  })

  test("a direct link's visitor consents with the document they sign; without it nothing is made", async () => {
    const t = await createEnvelope(client, { type: 'TEMPLATE', title: 'Walk-in', recipients: [{ name: 'Tenant', email: 'tenant@example.com', role: 'SIGNER', fields: [{ ...box, type: 'SIGNATURE' }] }] })
    const link = (await client.post('/template/direct/create', { templateId: Number(t.secondaryId.split('_')[1]), directRecipientId: t.recipients[0].id })).body
    const d = api(`${host.url}/api/signing`, `Bearer ${link.token}`, { consent: false })
    const session = (await d.get('/direct/session')).body
    const body = { signer: { name: 'Vera', email: 'vera@example.com' }, fields: session.fields.map((f: any) => ({ id: f.id, value: SIGNATURE })) }
    const documents = async () => (await host.db.query<{ n: number }>(`select count(*)::int as n from envelopes where type = 'DOCUMENT' and template_id = $1`, [t.id]))[0]!.n
    // The team's disclosure is the default again (the test before went back to it): a later version with no text.
    const shown = (await d.get('/direct/consent')).body
    expect(shown).toMatchObject({ given: false, disclosure: { text: null } })
    const version = shown.disclosure.version as number
    const refused = await d.post('/direct/complete', body)
    expect([refused.status, refused.body.code]).toEqual([403, 'CONSENT_REQUIRED'])
    expect(await documents()).toBe(0)
    expect((await d.post('/direct/complete', { ...body, consent: { version: version + 1, language: 'en' } })).body.code).toBe('DISCLOSURE_CHANGED')
    expect(await documents()).toBe(0)
    const done = await d.post('/direct/complete', { ...body, consent: { version, language: 'en' } })
    expect(done.status).toBe(200)
    const [row] = await consents(done.body.envelopeId)
    expect(row).toMatchObject({ recipient_id: done.body.recipientId, data: { disclosureVersion: version, disclosureHash: sha(en) } })
  })

  test('the signing certificate names each consent with its time, version and hash', async () => {
    const { e, s, fields } = await sent()
    const { version } = (await s.get('/consent')).body.disclosure
    const given = (await s.post('/consent', { version, language: 'en' })).body.consent
    expect((await s.post('/complete', { fields })).status).toBe(200)
    await sealed(host, e.id, 120_000)
    const signed = (await client.get(`/envelope/item/${e.envelopeItems[0].id}/download?version=signed`)).body as Uint8Array
    const text = (await pdfText(signed)).join(" ").replace(/\s+/g, ' ')
    expect(text).toContain('Consented to sign electronically')
    expect(text).toContain(`disclosure v${version} (sha256 ${given.disclosureHash.slice(0, 16)})`)
  })
})
