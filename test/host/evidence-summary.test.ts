/**
 * The evidence summary of an envelope: its hashes are those of the files the API
 * serves (hashed here from the downloads), its JWS is the sealing key's (checked with node:crypto
 * against the certificate in the settings, independently of the host's own check), the server
 * entry's verifyEvidence accepts it and refuses a changed or foreign one, and /verify with it says
 * when an operator's edit broke the audit log. Another team's envelope is a 404 in the API's shape.
 * Database: the embedded one (evidence; the audit guard is held on both in audit-redaction.test.ts).
 */
import { createHash, createPrivateKey, createSign, generateKeyPairSync, verify, X509Certificate } from 'node:crypto'
import forge from 'node-forge'
import { loadSealingKey } from '../../host/server/pdf/sealing-key.js'
import { verifyEvidence } from '../../src/server/index.js'
import { describe, expect, newTeam, test as it, unique } from './fixtures.js'
import { api, createEnvelope, mailed, sealed, SIGNATURE, until, type Api, type TestHost } from './support.js'

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
const parts = (jws: string) => jws.split('.') as [string, string, string]

describe('the evidence summary on pglite', { timeout: 120_000 }, () => {
  let host: TestHost
  let client: Api
  let envelopeId: string
  let itemId: string
  let jws: string
  let sealedPdf: Uint8Array
  let consented: boolean

  it.beforeAll(async ({ hosts }) => {
    host = await hosts.on('pglite')
    client = (await newTeam(host, { plan: 'enterprise' })).client
    const done = await signedWithConsent(host, client, { title: 'Evidence 7' }, { 'user-agent': 'Evidence Test Browser' })
    envelopeId = done.id
    itemId = done.itemId
    consented = done.consented
    sealedPdf = (await client.get(`/envelope/item/${itemId}/download`)).body
    const res = await client.get(`/envelope/${envelopeId}/evidence?format=jws`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/jose/)
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="Evidence 7 - evidence\.jws"/)
    jws = new TextDecoder().decode(res.body)
  }, 120_000)

  /** The host's sealing certificate (PEM), as it keeps it in its settings. */
  const sealingCertificate = async () => (await loadSealingKey(host.db, {})).certificatePem

  const operatorEdit = async (sql: string, params: unknown[]) => {
    await host.db.exec('alter table audit_logs disable trigger audit_logs_immutable')
    try {
      await host.db.query(sql, params)
    } finally {
      await host.db.exec('alter table audit_logs enable trigger audit_logs_immutable')
    }
  }

  it("names the files as they are served, each recipient's facts, the seal and the chain's head", async () => {
    const res = await client.get(`/envelope/${envelopeId}/evidence`)
    expect(res.status).toBe(200)
    const evidence = res.body
    const original = (await client.get(`/envelope/item/${itemId}/download?version=original`)).body as Uint8Array
    expect(evidence).toMatchObject({
      version: 'evidence/1',
      envelope: { id: envelopeId, title: 'Evidence 7', status: 'COMPLETED' },
      documents: [{ id: itemId, originalSha256: sha256(original), sealedSha256: sha256(sealedPdf) }],
      auditLog: { intact: true },
    })
    expect(evidence.envelope.completedAt).toEqual(expect.any(String))
    expect(evidence.generatedAt).toEqual(expect.any(String))
    const [r] = evidence.recipients
    expect(r).toMatchObject({ name: 'Jana', email: 'jana@example.com', role: 'SIGNER', userAgent: 'Evidence Test Browser', outcome: { status: 'SIGNED', reason: null } })
    expect(r.sentAt).toEqual(expect.any(String))
    // The consent when this host records one (RECIPIENT_CONSENT_GIVEN), null otherwise.
    expect(r.consent).toEqual(consented ? { at: expect.any(String), disclosureVersion: expect.anything(), disclosureHash: expect.stringMatching(/^[0-9a-f]{64}$/) } : null)
    expect(r.firstOpenedAt).toEqual(expect.any(String))
    expect(r.ipAddress).toMatch(/127\.0\.0\.1/)
    const log = (await client.get(`/envelope/${envelopeId}/audit-log?perPage=100&include=all`)).body
    expect(evidence.auditLog).toEqual({ intact: true, head: log.chainHead, entries: log.count })
    // The seal's certificate is the host's sealing certificate.
    const certificate = new X509Certificate(await sealingCertificate())
    expect(evidence.seal).toMatchObject({ certificateFingerprint: certificate.fingerprint256, level: expect.stringMatching(/^B-/) })
    expect(evidence.seal.signedAt).toEqual(expect.any(String))
  })

  it('is signed with the sealing key: node:crypto agrees, and so does verifyEvidence', async () => {
    const [h, p, s] = parts(jws)
    const header = JSON.parse(Buffer.from(h, 'base64url').toString())
    const certificate = new X509Certificate(await sealingCertificate())
    expect(header.alg).toBe('RS256')
    expect(new X509Certificate(Buffer.from(header.x5c[0], 'base64')).fingerprint256).toBe(certificate.fingerprint256)
    expect(verify('sha256', Buffer.from(`${h}.${p}`), certificate.publicKey, Buffer.from(s, 'base64url'))).toBe(true)
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString())
    expect(payload).toMatchObject({ version: 'evidence/1', envelope: { id: envelopeId } })

    const checked = await verifyEvidence(jws, { certificate: certificate.toString() })
    expect(checked).toMatchObject({ valid: true, evidence: { envelope: { id: envelopeId } }, certificate: { fingerprint: certificate.fingerprint256 } })
    expect(checked.certificate?.subject).toContain('envelope-embed host seal')
  })

  it('is refused by verifyEvidence with one byte of its payload changed, or signed by another key', async () => {
    const [h, p, s] = parts(jws)
    const payload = Buffer.from(p, 'base64url')
    const at = payload.indexOf('Evidence 7')
    payload[at] = 'F'.charCodeAt(0)
    const changed = `${h}.${payload.toString('base64url')}.${s}`
    expect(await verifyEvidence(changed)).toMatchObject({ valid: false, reason: expect.stringMatching(/signature/) })

    // Another key, in a certificate of its own, signing the same payload with a well-formed header.
    const other = await otherSigner()
    const header = Buffer.from(JSON.stringify({ alg: 'RS256', x5c: [other.certificateDer.toString('base64')] })).toString('base64url')
    const foreign = `${header}.${p}.${createSign('sha256').update(`${header}.${p}`).sign(other.key).toString('base64url')}`
    // On its own it is a valid JWS of that key, which is why callers pin the host's certificate.
    expect(await verifyEvidence(foreign)).toMatchObject({ valid: true })
    const pinned = await verifyEvidence(foreign, { certificate: await sealingCertificate() })
    expect(pinned).toMatchObject({ valid: false, reason: expect.stringMatching(/certificate/) })
    // The other key claiming the host's certificate: the signature does not hold.
    const claimed = Buffer.from(JSON.stringify({ alg: 'RS256', x5c: [JSON.parse(Buffer.from(h, 'base64url').toString()).x5c[0]] })).toString('base64url')
    const forged = `${claimed}.${p}.${createSign('sha256').update(`${claimed}.${p}`).sign(other.key).toString('base64url')}`
    expect(await verifyEvidence(forged)).toMatchObject({ valid: false })

    // /verify: only this host's sealing certificate counts.
    const verified = await api(host.apiUrl).post('/verify', foreign, { 'content-type': 'application/jose' })
    expect(verified.status).toBe(200)
    expect(verified.body).toEqual({ evidence: expect.objectContaining({ valid: false, reason: expect.stringMatching(/sealing certificate/) }) })
  })

  it('is checked by /verify with the PDF, and says when the audit log no longer holds', async () => {
    const anyone = api(host.apiUrl)
    const both = new FormData()
    both.append('file', new Blob([sealedPdf as BlobPart], { type: 'application/pdf' }), 'sealed.pdf')
    both.append('evidence', new Blob([jws], { type: 'application/jose' }), 'evidence.jws')
    const before = await anyone.post('/verify', both)
    expect(before.status).toBe(200)
    expect(before.body).toMatchObject({
      valid: true,
      sealedByThisService: true,
      evidence: { valid: true, envelopeId, pdf: { matches: true, as: 'sealed' }, auditLog: { intact: true, headMatches: true } },
    })
    const alone = await anyone.post('/verify', jws, { 'content-type': 'application/jose' })
    expect(alone.body).toEqual({ evidence: expect.objectContaining({ valid: true, pdf: null, auditLog: expect.objectContaining({ intact: true }) }) })
    const other = new FormData()
    other.append('file', new Blob([(await import('./support.js').then((m) => m.makePdf())) as BlobPart], { type: 'application/pdf' }), 'other.pdf')
    other.append('evidence', jws)
    expect((await anyone.post('/verify', other)).body.evidence).toMatchObject({ valid: true, pdf: { matches: false, as: null } })

    const [opened] = await host.db.query<{ id: string }>("select id::text as id from audit_logs where envelope_id = $1 and type = 'DOCUMENT_OPENED'", [envelopeId])
    await operatorEdit('update audit_logs set ip_address = $2 where id = $1', [opened!.id, '203.0.113.9'])
    const after = await anyone.post('/verify', jws, { 'content-type': 'application/jose' })
    expect(after.body.evidence).toMatchObject({ valid: true, auditLog: { intact: false } })
    expect((await client.get(`/envelope/${envelopeId}/evidence`)).body.auditLog).toEqual({ intact: false, head: null, entries: expect.any(Number) })
  })

  it('lists the proofs a recipient gave: an e-mailed code to open, another to sign', async () => {
    const email = `${unique('proof')}@example.com`
    const e = await createEnvelope(client, {
      title: 'Evidence proofs',
      recipients: [{ name: 'Petra', email, role: 'SIGNER', accessAuth: ['TWO_FACTOR_AUTH'], actionAuth: ['TWO_FACTOR_AUTH'], fields: [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }] }],
    })
    const sent = await client.post('/envelope/distribute', { envelopeId: e.id })
    expect(sent.status).toBe(200)
    let grant: Record<string, string> = {}
    const signer = api(`${host.url}/api/signing`, `Bearer ${sent.body.recipients[0].token}`)
    const lastMail = async () => (await host.db.query<{ id: number }>('select coalesce(max(id), 0)::int as id from mails'))[0]!.id
    /** The code mailed to the recipient after mail `after` (the queue sends it within moments). */
    const mailedCode = async (after: number) => {
      let text = ''
      await until(async () => {
        const [row] = await host.db.query<{ text: string }>(`select text from mails where to_address = $1 and template = 'recipient-code' and id > $2 order by id desc limit 1`, [email, after])
        return Boolean((text = row?.text ?? ''))
      })
      return /\b(\d{6})\b/.exec(text)![1]!
    }
    let after = await lastMail()
    expect((await signer.post('/auth/code', { purpose: 'access' })).status).toBe(200)
    const access = await signer.post('/auth/access', { method: 'TWO_FACTOR_AUTH', code: await mailedCode(after) })
    expect(access.status, JSON.stringify(access.body)).toBe(200)
    grant = { 'x-recipient-auth': access.body.grant }
    await signer.post('/open', {}, grant)
    const consent = await signer.get('/consent', grant)
    if (consent.status === 200) expect((await signer.post('/consent', { version: consent.body.disclosure.version }, grant)).status).toBe(200)
    const session = (await signer.get('/session', grant)).body
    after = await lastMail()
    expect((await signer.post('/auth/code', { purpose: 'action' }, grant)).status).toBe(200)
    const code = await mailedCode(after)
    const done = await signer.post('/complete', { fields: session.fields.map((f: any) => ({ id: f.id, value: SIGNATURE })), auth: { method: 'TWO_FACTOR_AUTH', code } }, grant)
    expect(done.status, JSON.stringify(done.body)).toBe(200)

    const evidence = (await client.get(`/envelope/${e.id}/evidence`)).body
    expect(evidence.recipients[0].proofs).toEqual([
      { stage: 'access', method: 'TWO_FACTOR_AUTH', at: evidence.recipients[0].firstOpenedAt },
      { stage: 'action', method: 'TWO_FACTOR_AUTH', at: evidence.recipients[0].outcome.at },
    ])
  })

  it("answers a draft with null sealed hashes, and 404 for another team's envelope", async () => {
    const draft = await createEnvelope(client, { title: 'Draft 1' })
    const res = await client.get(`/envelope/${draft.id}/evidence`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ envelope: { status: 'DRAFT' }, seal: null, documents: [{ sealedSha256: null, originalSha256: expect.stringMatching(/^[0-9a-f]{64}$/) }] })

    const team = await host.createTeam({ name: 'Rival', plan: 'enterprise' })
    const rival = api(host.apiUrl, `Bearer ${(await host.createApiToken({ name: 'rival', teamId: team.id })).token}`)
    for (const path of [`/envelope/${envelopeId}/evidence`, `/envelope/${envelopeId}/evidence?format=jws`]) {
      const refused = await rival.get(path)
      expect(refused.status).toBe(404)
      expect(refused.body).toEqual({ message: expect.any(String), code: 'NOT_FOUND' })
    }
    const bad = await client.get(`/envelope/${envelopeId}/evidence?format=xml`)
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ message: expect.any(String), code: expect.any(String), issues: expect.any(Array) })
  })
})

/**
 * As completeOneSigner (support.ts), with the recipient's consent to sign electronically given
 * first where the host records it (POST /api/signing/consent), so the summary has one to show.
 */
async function signedWithConsent(host: TestHost, client: Api, payload: Record<string, unknown>, headers: Record<string, string>) {
  const e = await createEnvelope(client, {
    ...payload,
    recipients: [{ name: 'Jana', email: 'jana@example.com', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }] }],
  })
  const sent = await client.post('/envelope/distribute', { envelopeId: e.id })
  expect(sent.status).toBe(200)
  const signer = api(`${host.url}/api/signing`, `Bearer ${sent.body.recipients[0].token}`)
  await signer.post('/open', {}, headers)
  const consent = await signer.get('/consent')
  if (consent.status === 200) expect((await signer.post('/consent', { version: consent.body.disclosure.version }, headers)).status).toBe(200)
  const session = (await signer.get('/session')).body
  const done = await signer.post('/complete', { fields: session.fields.map((f: any) => ({ id: f.id, value: SIGNATURE })) }, headers)
  expect(done.status).toBe(200)
  await sealed(host, e.id)
  await mailed(host, e.id)
  return { id: e.id, itemId: e.envelopeItems[0].id as string, consented: consent.status === 200 }
}

/** An RSA key and a self-signed certificate for it, made here. */
async function otherSigner() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()
  const forgeKey = forge.pki.privateKeyFromPem(pem)
  const cert = forge.pki.createCertificate()
  cert.publicKey = forge.pki.setRsaPublicKey(forgeKey.n, forgeKey.e)
  cert.serialNumber = '4a'
  cert.validity.notBefore = new Date(Date.now() - 60_000)
  cert.validity.notAfter = new Date(Date.now() + 86_400_000)
  cert.setSubject([{ name: 'commonName', value: 'someone else' }])
  cert.setIssuer([{ name: 'commonName', value: 'someone else' }])
  cert.sign(forgeKey, forge.md.sha256.create())
  const certificateDer = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary')
  return { key: createPrivateKey(pem), certificateDer }
}
