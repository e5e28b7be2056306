/**
 * API v2's answers are declared once (host/server/contract/answers.ts): each schema is tied to the
 * library's type of the same resource (checked by tsc: an answer must be usable as what the
 * library's clients read), and real answers of a host are parsed with them. A parse that changes
 * the answer means a key the declaration does not have (zod drops it) or a value of another type
 * (zod throws): either way the declaration and the answer have parted.
 * Database: the embedded one (the shapes, not the SQL).
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expectTypeOf } from 'vitest'
import type { z } from 'zod'
import type { Attachment, AuditLogEntry, DistributeResponse, Envelope, EnvelopeItem, EnvelopeSummary, Field, Recipient, Webhook, WebhookCall } from '../../src/protocol/index.js'
import type { Evidence, EvidenceCheck } from '../../src/protocol/evidence.js'
import type { V2Answer } from '../../host/server/contract/api-v2.js'
import type { CheckedSignature, VerifyResult } from '../../host/server/contract/verify-answer.js'
import { EvidenceAnswer, EvidenceCheckAnswer, VerifiedSignatureAnswer, VerifyAnswer, VerifyResultAnswer } from '../../host/server/contract/record-answers.js'
import {
  AttachmentAnswer,
  AuditLogEntryAnswer,
  EnvelopeAnswer,
  FieldAnswer,
  ItemAnswer,
  RecipientAnswer,
  RecipientWithFieldsAnswer,
  SentAnswer,
  WebhookAnswer,
  WebhookCallAnswer,
} from '../../host/server/contract/answers.js'
import { describe, expect, newTeam, test } from './fixtures.js'
import { api, completeOneSigner, createEnvelope, until } from './support.js'

/** The answer, parsed with its declaration: equal only when every key is declared and of its type. */
const declared = (schema: z.ZodType, answer: unknown) => expect(schema.parse(answer)).toEqual(answer)

describe('the answers of API v2, declared once', () => {
  test('each declaration is usable as the type the library reads', () => {
    expectTypeOf<z.output<typeof RecipientAnswer>>().toExtend<Recipient>()
    expectTypeOf<z.output<typeof FieldAnswer>>().toExtend<Field>()
    expectTypeOf<z.output<typeof ItemAnswer>>().toExtend<EnvelopeItem>()
    expectTypeOf<z.output<typeof AttachmentAnswer>>().toExtend<Attachment>()
    expectTypeOf<Omit<z.output<typeof EnvelopeAnswer>, 'fields'>>().toExtend<EnvelopeSummary>()
    expectTypeOf<z.output<typeof EnvelopeAnswer> & { fields: z.output<typeof FieldAnswer>[] }>().toExtend<Envelope>()
    expectTypeOf<z.output<typeof SentAnswer>>().toExtend<DistributeResponse>()
    expectTypeOf<z.output<typeof AuditLogEntryAnswer>>().toExtend<AuditLogEntry>()
    expectTypeOf<z.output<typeof WebhookAnswer>>().toExtend<Webhook>()
    expectTypeOf<z.output<typeof WebhookCallAnswer>>().toExtend<WebhookCall>()
  })

  test("the record's declarations are the types the host makes its answers as, both ways", () => {
    expectTypeOf<z.output<typeof VerifiedSignatureAnswer>>().toExtend<CheckedSignature>()
    expectTypeOf<CheckedSignature>().toExtend<z.output<typeof VerifiedSignatureAnswer>>()
    expectTypeOf<z.output<typeof EvidenceAnswer>>().toExtend<Evidence>()
    expectTypeOf<Evidence>().toExtend<z.output<typeof EvidenceAnswer>>()
    expectTypeOf<z.output<typeof EvidenceCheckAnswer>>().toExtend<EvidenceCheck>()
    expectTypeOf<EvidenceCheck>().toExtend<z.output<typeof EvidenceCheckAnswer>>()
    expectTypeOf<z.output<typeof VerifyResultAnswer>>().toExtend<VerifyResult>()
    expectTypeOf<VerifyResult>().toExtend<z.output<typeof VerifyResultAnswer>>()
    expectTypeOf<z.output<typeof VerifyAnswer>>().toExtend<V2Answer<'POST /verify'>>()
    expectTypeOf<V2Answer<'POST /verify'>>().toExtend<z.output<typeof VerifyAnswer>>()
  })

  test('a completed envelope\'s evidence summary and /verify\'s answers are exactly what the declarations say', { timeout: 120_000 }, async ({ hosts }) => {
    const host = await hosts.on('pglite')
    const { client } = await newTeam(host)
    const { id, itemId } = await completeOneSigner(host, client, { title: 'Record' })
    const evidence = (await client.get(`/envelope/${id}/evidence`)).body
    expect(evidence.recipients[0].history.map((s: { kind: string }) => s.kind)).toContain('COMPLETED')
    declared(EvidenceAnswer, evidence)

    const jws = new TextDecoder().decode((await client.get(`/envelope/${id}/evidence?format=jws`)).body)
    const both = new FormData()
    both.append('file', new Blob([(await client.get(`/envelope/item/${itemId}/download`)).body as BlobPart], { type: 'application/pdf' }), 'sealed.pdf')
    both.append('evidence', new Blob([jws], { type: 'application/jose' }), 'evidence.jws')
    const verified = (await api(host.apiUrl).post('/verify', both)).body
    expect(verified).toMatchObject({ sealedByThisService: true, evidence: { valid: true, pdf: { matches: true, as: 'sealed' } } })
    declared(VerifyResultAnswer, verified)
    declared(VerifyAnswer, verified)
    const alone = (await api(host.apiUrl).post('/verify', jws, { 'content-type': 'application/jose' })).body
    expect(alone).toMatchObject({ evidence: { valid: true, pdf: null } })
    declared(VerifyAnswer, alone)
  })

  test('real answers are exactly what the declarations say', async ({ hosts }) => {
    const host = await hosts.on('pglite', { webhookAllowPrivateUrls: true })
    const { client } = await newTeam(host)
    const receiver = createServer((_req, res) => res.writeHead(204).end())
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    try {
      const hook = await client.post('/webhook/create', { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, events: ['DOCUMENT_CREATED'], secret: 'shh' })
      declared(WebhookAnswer, hook.body)
      expect(hook.body.signingKey).toMatch(/^whsec_/)

      const box = { page: 1, width: 20, height: 5 }
      const doc = await createEnvelope(client, {
        title: 'Contract',
        recipients: [
          { email: 'ann@example.com', name: 'Ann', role: 'SIGNER', fields: [{ ...box, type: 'SIGNATURE', positionX: 10, positionY: 80 }, { ...box, type: 'TEXT', positionX: 10, positionY: 10, fieldMeta: { type: 'text', label: 'City' } }] },
          { email: 'cc@example.com', name: 'Cid', role: 'CC' },
        ],
      })
      declared(EnvelopeAnswer, doc)
      await client.post('/envelope/attachment/create', { envelopeId: doc.id, data: { label: 'Terms', data: 'https://example.com/terms' } })
      for (const a of (await client.get(`/envelope/attachment?envelopeId=${doc.id}`)).body.data) declared(AttachmentAnswer, a)
      declared(RecipientWithFieldsAnswer, (await client.get(`/envelope/recipient/${doc.recipients[0].id}`)).body)
      for (const r of doc.recipients) declared(RecipientAnswer, r)
      declared(FieldAnswer, (await client.get(`/envelope/field/${doc.fields[0].id}`)).body)
      for (const item of doc.envelopeItems) declared(ItemAnswer, item)

      const sent = await client.post('/envelope/distribute', { envelopeId: doc.id })
      declared(SentAnswer, sent.body)
      const after = (await client.get(`/envelope/${doc.id}`)).body
      declared(EnvelopeAnswer, after)
      expect(after.recipients[0].expiresAt === null || typeof after.recipients[0].expiresAt === 'string').toBe(true)
      for (const e of (await client.get('/envelope?perPage=100')).body.data) declared(EnvelopeAnswer, e)
      for (const entry of (await client.get(`/envelope/${doc.id}/audit-log?perPage=100`)).body.data) declared(AuditLogEntryAnswer, entry)

      // A template with its direct link: the link inside the envelope.
      const template = await createEnvelope(client, { type: 'TEMPLATE', title: 'Form', recipients: [{ email: '', name: 'Client', role: 'SIGNER' }] })
      await client.post('/template/direct/create', { templateId: Number(template.secondaryId.split('_')[1]), directRecipientId: template.recipients[0].id })
      const withLink = (await client.get(`/envelope/${template.id}`)).body
      expect(withLink.directLink).not.toBeNull()
      declared(EnvelopeAnswer, withLink)

      // The webhook's delivery log, once the calls went out.
      const calls = async () => (await client.get(`/webhook/${hook.body.id}/calls`)).body.data as unknown[]
      await until(async () => (await calls()).length > 0)
      for (const call of await calls()) declared(WebhookCallAnswer, call)
      declared(WebhookAnswer, (await client.get(`/webhook/${hook.body.id}`)).body)
    } finally {
      receiver.close()
    }
  })
})
