/**
 * The server entry's evidence pieces: the client's envelopes.evidence (JSON and JWS) against a
 * real host, verifyEvidence on what it answers (pinned by fingerprint and by certificate), an
 * ES256 JWS from an EC P-256 sealing key (made by openssl, checked by node:crypto as well), and
 * the files it refuses.
 * Database: the embedded one (the client's view of the API; SQL is held on both in test/host).
 */
import { execFileSync } from 'node:child_process'
import { createHash, verify, X509Certificate } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { signJws } from '../../host/server/pdf/jws.js'
import { loadSealingKey } from '../../host/server/pdf/sealing-key.js'
import type { TestHost } from '../host/support.js'
import { newTeam, test } from '../host/fixtures.js'
import { ApiError, createClient, verifyEvidence, type EnvelopeClient } from '../../src/server/index.js'
import { makePdf } from './fixtures.js'

const SIGNATURE = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
const b64url = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url')

let host: TestHost
let dir: string
let client: EnvelopeClient

// The worker's host without a mailbox, as `npm start` runs by default: mails stay queued, so an
// envelope's audit log holds still. Everything here is a team's own.
test.beforeAll(async ({ hosts }) => {
  dir = await mkdtemp(join(tmpdir(), 'envelope-embed-evidence-'))
  host = await hosts.on('pglite', { mailbox: false })
  client = createClient({ baseUrl: host.url, apiKey: (await newTeam(host, { plan: 'enterprise' })).token })
})

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
})

/** The signing pages' API as the recipient holding `token`: consent where asked, then a signature in every field. */
async function sign(token: string) {
  const call = (path: string, body?: unknown) =>
    fetch(`${host.url}/api/signing${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'User-Agent': 'EvidenceTest/1.0' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  await call('/open', {})
  const consent = await call('/consent')
  if (consent.status === 200) await call('/consent', { version: ((await consent.json()) as { disclosure: { version: number } }).disclosure.version })
  const session = (await (await call('/session')).json()) as { fields: { id: number }[] }
  const res = await call('/complete', { fields: session.fields.map((f) => ({ id: f.id, value: SIGNATURE })) })
  expect(res.status, await res.clone().text()).toBe(200)
}

/** Waits for the seal; the limit is a safety net for a busy machine, not an expectation. */
async function sealedOf(id: string): Promise<void> {
  for (const end = Date.now() + 120_000; Date.now() < end; ) {
    if ((await client.envelopes.evidence(id)).seal) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`envelope ${id} was not sealed`)
}

// Sealing waits on the host's queue: a busy machine gets time.
describe('envelopes.evidence and verifyEvidence against the real host', { timeout: 150_000 }, () => {
  it('answers the summary of a signed envelope, and its JWS verifies pinned to the seal', async () => {
    const pdf = await makePdf(1, 'Evidence')
    const { id } = await client.envelopes.create({
      type: 'DOCUMENT',
      title: 'Evidence lease',
      recipients: [{ email: 'ann@example.com', name: 'Ann', role: 'SIGNER', fields: [{ identifier: 0, type: 'SIGNATURE', page: 1, positionX: 10, positionY: 80, width: 20, height: 5 }] }],
      files: [{ name: 'lease.pdf', data: pdf }],
    })
    const sent = await client.envelopes.distribute({ envelopeId: id })
    await sign(sent.recipients[0]!.token)
    await sealedOf(id)

    const evidence = await client.envelopes.evidence(id)
    const [item] = (await client.envelopes.get(id)).envelopeItems
    const sealed = await client.items.download(item!.id)
    expect(evidence.documents).toEqual([{ id: item!.id, title: expect.any(String), originalSha256: sha256(pdf), sealedSha256: sha256(sealed) }])
    expect(evidence.recipients[0]).toMatchObject({ name: 'Ann', userAgent: 'EvidenceTest/1.0', outcome: { status: 'SIGNED' } })

    const jws = await client.envelopes.evidence(id, { format: 'jws' })
    expect(jws.split('.')).toHaveLength(3)
    const fingerprint = evidence.seal!.certificateFingerprint!
    const checked = await verifyEvidence(jws, { certificate: fingerprint.replace(/:/g, '').toLowerCase() })
    expect(checked).toMatchObject({ valid: true, certificate: { fingerprint }, evidence: { envelope: { id, status: 'COMPLETED' }, documents: evidence.documents } })
    expect(await verifyEvidence(jws, { certificate: 'AA'.repeat(32) })).toMatchObject({ valid: false, reason: expect.stringMatching(/expected certificate/) })
  })

  it("records a rejection's reason, and answers 404 for an unknown envelope", async () => {
    const { id } = await client.envelopes.create({
      type: 'DOCUMENT',
      title: 'Rejected lease',
      recipients: [{ email: 'bob@example.com', name: 'Bob', role: 'SIGNER', fields: [{ identifier: 0, type: 'SIGNATURE', page: 1, positionX: 10, positionY: 80, width: 20, height: 5 }] }],
      files: [{ name: 'lease.pdf', data: await makePdf(1, 'Reject') }],
    })
    const sent = await client.envelopes.distribute({ envelopeId: id })
    await client.recipients.reject(sent.recipients[0]!.id, { reason: 'Wrong rent' })
    const evidence = await client.envelopes.evidence(id)
    expect(evidence).toMatchObject({ envelope: { status: 'REJECTED', completedAt: null }, seal: null, documents: [{ sealedSha256: null }] })
    expect(evidence.recipients[0]).toMatchObject({ name: 'Bob', sentAt: expect.any(String), firstOpenedAt: null, outcome: { status: 'REJECTED', reason: 'Wrong rent' } })

    const refused = await client.envelopes.evidence('envelope_nosuchenvelope').then(() => null, (e: unknown) => e)
    expect(refused).toBeInstanceOf(ApiError)
    expect(refused).toMatchObject({ status: 404, code: 'NOT_FOUND' })
  })
})

describe('an EC P-256 sealing key signs ES256', () => {
  it('verifyEvidence and node:crypto accept it; a changed signature byte and a foreign pin do not', async () => {
    const pem = join(dir, 'ec.pem')
    const key = join(dir, 'ec.key')
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', key, '-out', pem, '-days', '2', '-subj', '/CN=EC seal/O=Evidence Tests'], { stdio: 'ignore' })
    const sealingKey = await loadSealingKey(host.db, { SEALING_CERT_FILE: pem, SEALING_KEY_FILE: key })
    const payload = { version: 'evidence/1', generatedAt: new Date().toISOString(), envelope: { id: 'envelope_ec' } }
    const jws = signJws(payload, sealingKey)
    const [h, p, s] = jws.split('.') as [string, string, string]
    expect(JSON.parse(Buffer.from(h, 'base64url').toString())).toMatchObject({ alg: 'ES256' })
    const certificate = new X509Certificate(sealingKey.certificatePem)
    expect(verify('sha256', Buffer.from(`${h}.${p}`), { key: certificate.publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'))).toBe(true)

    const checked = await verifyEvidence(jws, { certificate: sealingKey.certificatePem })
    expect(checked).toMatchObject({ valid: true, evidence: payload, certificate: { fingerprint: certificate.fingerprint256, subject: 'CN=EC seal, O=Evidence Tests' } })
    const signature = Buffer.from(s, 'base64url')
    signature[10]! ^= 1
    expect(await verifyEvidence(`${h}.${p}.${signature.toString('base64url')}`)).toMatchObject({ valid: false, reason: 'the signature does not hold' })
    const hostCertificate = new X509Certificate((await loadSealingKey(host.db, {})).certificatePem)
    expect(await verifyEvidence(jws, { certificate: hostCertificate.fingerprint256 })).toMatchObject({ valid: false, reason: expect.stringMatching(/expected certificate/) })
  })

  it('refuses what is not an evidence JWS', async () => {
    expect(await verifyEvidence('not a jws')).toMatchObject({ valid: false, reason: 'not a compact JWS' })
    expect(await verifyEvidence(`${b64url({ alg: 'none' })}.${b64url({ version: 'evidence/1' })}.`)).toMatchObject({ valid: false, reason: 'unsupported algorithm none' })
    expect(await verifyEvidence(`${b64url({ alg: 'RS256' })}.${b64url({ version: 'evidence/1' })}.AAAA`)).toMatchObject({ valid: false, reason: expect.stringMatching(/x5c/) })
  })
})
