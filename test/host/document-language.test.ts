/**
 * Whether the sender chose a document's language: the API always answers a language (`en` by
 * default); the signing session and the access steps also say whether it was chosen, so the page
 * can speak the signer's browser's language otherwise. Every door that sets it, copies that carry
 * it, and migration 33's reading of the envelopes from before.
 * Databases: both (a new column and its migration, through each driver).
 */
import { MIGRATIONS } from '../../host/server/db/migrations/index.js'
import { api, createEnvelope, form, VARIANTS, type Api, type TestHost } from './support.js'
import { describe, expect, newTeam, test } from './fixtures.js'

const signer = (email: string) => ({ email, name: 'Lena', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }] })

describe.each(VARIANTS)('the document language chosen, on $variant', ({ variant, skip }) => {
  let host: TestHost
  let client: Api

  test.beforeAll(async ({ hosts }) => {
    if (skip) return
    host = await hosts.on(variant)
    ;({ client } = await newTeam(host))
  })

  const chosen = async (id: string) => (await host.db.query<{ language_chosen: boolean }>('select language_chosen from envelopes where id = $1', [id]))[0]!.language_chosen
  /** The signing session and access steps of the document's first recipient, once sent. */
  async function sentTo(id: string, meta?: object) {
    const sent = await client.post('/envelope/distribute', { envelopeId: id, ...(meta ? { meta } : {}) })
    expect(sent.status, JSON.stringify(sent.body)).toBe(200)
    const signing = api(`${host.url}/api/signing`, `Bearer ${sent.body.recipients[0].token}`)
    return { session: (await signing.get('/session')).body, auth: (await signing.get('/auth')).body }
  }

  test.skipIf(skip)('the API answers en either way; the session and the access steps tell whether it was chosen', async () => {
    const plain = await createEnvelope(client, { recipients: [signer('plain@example.com')] })
    const english = await createEnvelope(client, { meta: { language: 'en' }, recipients: [signer('english@example.com')] })
    expect(plain.documentMeta.language).toBe('en')
    expect(english.documentMeta.language).toBe('en')
    const a = await sentTo(plain.id)
    expect(a.session.envelope).toMatchObject({ documentMeta: { language: 'en' }, languageChosen: false })
    expect(a.auth).toMatchObject({ language: 'en', languageChosen: false })
    const b = await sentTo(english.id)
    expect(b.session.envelope).toMatchObject({ documentMeta: { language: 'en' }, languageChosen: true })
    expect(b.auth).toMatchObject({ language: 'en', languageChosen: true })
  })

  test.skipIf(skip)('chosen by an update or at sending; another setting leaves it unchosen', async () => {
    const updated = await createEnvelope(client, { recipients: [signer('a@example.com')] })
    expect((await client.post('/envelope/update', { envelopeId: updated.id, meta: { subject: 'Please sign' } })).status).toBe(200)
    expect(await chosen(updated.id)).toBe(false)
    expect((await client.post('/envelope/update', { envelopeId: updated.id, meta: { language: 'en' } })).status).toBe(200)
    expect(await chosen(updated.id)).toBe(true)
    const atSending = await createEnvelope(client, { recipients: [signer('b@example.com')] })
    expect((await sentTo(atSending.id, { language: 'en' })).session.envelope.languageChosen).toBe(true)
  })

  test.skipIf(skip)("copies keep their source's; the team's default language is a choice", async () => {
    const template = await createEnvelope(client, { type: 'TEMPLATE', recipients: [signer('t@example.com')] })
    const used = await client.post('/envelope/use', form({ envelopeId: template.id }, []))
    expect(used.status, JSON.stringify(used.body)).toBe(200)
    expect(await chosen(used.body.id)).toBe(false)
    const copy = await client.post('/envelope/duplicate', { envelopeId: template.id })
    expect(await chosen(copy.body.id)).toBe(false)

    const { id: team, client: own } = await newTeam(host)
    await host.db.query(`insert into team_branding (team_id, language) values ($1, 'de')`, [team])
    const branded = await createEnvelope(own, { recipients: [signer('c@example.com')] })
    expect(branded.documentMeta.language).toBe('de')
    expect(await chosen(branded.id)).toBe(true)
  })

  test.skipIf(skip)('migration 33: any language but en was chosen; an en cannot be told from the default', async () => {
    const en = await createEnvelope(client, { meta: { language: 'en' } })
    const fr = await createEnvelope(client, { meta: { language: 'fr' } })
    // The envelopes as they were before: no column, then the migration.
    await host.db.exec(`alter table envelopes drop column language_chosen; ${MIGRATIONS.find((m) => m.version === 33)!.sql}`)
    expect([await chosen(en.id), await chosen(fr.id)]).toEqual([false, true])
  })
})
