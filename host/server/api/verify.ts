/**
 * POST /verify: anyone may check a PDF's signatures, no token needed. The file is the request
 * body (application/pdf, or multipart with a `file` part), capped at MAX_UPLOAD_BYTES (an evidence
 * file at EVIDENCE_MAX_BYTES, api/body-budget.ts) before it is read, parsed with
 * the bounded upload checks first, never stored; requests are limited per address
 * (VERIFY_RATE_LIMIT a minute) and checked in a lane of their own (workers/verify-lane.ts). A
 * signature is this service's seal when its certificate's fingerprint is one of the host's
 * sealing certificates, whatever names it carries. When the file is one this service sealed, the
 * answer names that document's title, completion time and recipients, and nothing else, and says
 * whether the document's audit log still holds (its hash chain, domain/evidence/audit-chain.ts). An
 * evidence file (the JWS of GET /envelope/{id}/evidence?format=jws) may come with the PDF (the
 * `evidence` part of the form) or alone (Content-Type: application/jose): the answer's `evidence`
 * says whether this host's sealing key signed it, whether the PDF is one of its documents, and
 * whether the audit log still holds the head it names (domain/evidence/evidence.ts).
 */
import { Hono, type Context } from 'hono'
import { sha256Hex } from '../domain/item/files.js'
import { sealedDocumentAndLog } from '../domain/evidence/sealed-documents.js'
import { evidenceCheck, type EvidenceCheck } from '../domain/evidence/evidence.js'
import { badRequest, issue } from '../errors.js'
import { sealingFingerprints, type SealingKey } from '../pdf/sealing-key.js'
import { onlyValidationAfter, timestampChain } from '../pdf/signature-report.js'
import { runVerify } from '../workers/verify-lane.js'
import type { AppEnv, HostContext } from '../context.js'
import { addressKey, RateLimiter } from './rate-limit.js'
import { EVIDENCE_MAX_BYTES, tooLarge } from './body-budget.js'
import { readForm } from './multipart.js'
import type { V2Answer } from '../contract/api-v2.js'
import type { CheckedSignature, VerifyResult } from '../contract/verify-answer.js'

export function verifyRoutes(ctx: HostContext) {
  const r = new Hono<AppEnv>()
  const limiter = new RateLimiter({ limit: ctx.config.verifyRateLimit, windowSeconds: 60, clock: ctx.clock })
  // The body was capped by its kind (a PDF, an evidence file) before anything here runs (app.ts).
  r.post('/verify', async (c) => {
    limiter.hit(c, addressKey(c))
    const { pdf, evidence } = await filesOf(c)
    if (!pdf) return c.json({ evidence: await checkEvidence(ctx, evidence!, null) } satisfies V2Answer<'POST /verify'>)
    const result = await verifyUpload(ctx, pdf)
    return c.json(evidence === null ? result : { ...result, evidence: await checkEvidence(ctx, evidence, result.sha256) } satisfies V2Answer<'POST /verify'>)
  })
  return r
}

/** The form's evidence part, held to the evidence file's cap before it is read. */
async function evidencePart(given: FormDataEntryValue | null): Promise<string | null> {
  if (given === null) return null
  const size = typeof given === 'string' ? given.length : given.size
  if (size > EVIDENCE_MAX_BYTES) throw tooLarge(EVIDENCE_MAX_BYTES)
  return typeof given === 'string' ? given : given.text()
}

/** The PDF and the evidence file (a compact JWS) of the request: at least one of them. */
async function filesOf(c: Context): Promise<{ pdf: Uint8Array | null; evidence: string | null }> {
  const type = c.req.header('content-type') ?? ''
  if (type.startsWith('multipart/form-data')) {
    // A form that does not parse is the sender's mistake (400), not ours. The file, its evidence
    // and a few parts more at most: anything else is not a form of this route.
    const form = await readForm(c, 4, 'the form cannot be read: send the PDF as the `file` part of a multipart/form-data body', { evidence: EVIDENCE_MAX_BYTES })
    const file = form.get('file')
    const evidence = await evidencePart(form.get('evidence'))
    if (!(file instanceof File)) {
      if (evidence !== null) return { pdf: null, evidence: nonEmpty(evidence) }
      throw badRequest('send the PDF as the `file` part of the form (and an evidence file as `evidence`)', [issue(['file'], 'Required')])
    }
    return { pdf: new Uint8Array(await file.arrayBuffer()), evidence: evidence === null ? null : nonEmpty(evidence) }
  }
  if (/^application\/jose\b/.test(type)) return { pdf: null, evidence: nonEmpty(await c.req.text()) }
  if (!/^application\/(pdf|octet-stream)\b/.test(type)) {
    throw badRequest('send the PDF as the body (Content-Type: application/pdf), an evidence file as the body (Content-Type: application/jose), or either as the `file` and `evidence` parts of a form')
  }
  const bytes = new Uint8Array(await c.req.arrayBuffer())
  if (!bytes.byteLength) throw badRequest('the body is empty: send the PDF')
  return { pdf: bytes, evidence: null }
}

function nonEmpty(evidence: string): string {
  if (!evidence.trim()) throw badRequest('the evidence file is empty', [issue(['evidence'], 'Required')])
  return evidence
}

/** An evidence file checked with this host's sealing certificates, and against the PDF's hash when one came with it. */
async function checkEvidence(ctx: Pick<HostContext, 'db' | 'sealingKey'>, jws: string, pdfSha256: string | null): Promise<EvidenceCheck> {
  return evidenceCheck(ctx.db, jws, await ownFingerprints(ctx), pdfSha256)
}

/**
 * Checks the file in the verify lane (its own thread and queue: anyone's checks never hold up a
 * team's work), then tells which signatures are this host's seal and which document it is.
 */
export async function verifyUpload(ctx: Pick<HostContext, 'db' | 'sealingKey'>, bytes: Uint8Array): Promise<VerifyResult> {
  const sha256 = sha256Hex(bytes)
  const { pageCount, signatures: reports } = await runVerify(bytes)
  const own = new Set(await ownFingerprints(ctx))
  const signatures = reports.map((s) => ({ ...s, sealOfThisService: Boolean(s.certificate && own.has(s.certificate.sha256Fingerprint)) }))
  const valid = signatures.length > 0 && signatures.every((s) => s.intact && onlyValidationAfter(s))
  return {
    sha256,
    pageCount,
    signatures,
    valid,
    sealedByThisService: valid && signatures.some((s) => s.kind === 'signature' && s.sealOfThisService),
    timestamps: timestampChain(reports),
    ...(await sealedDocumentAndLog(ctx.db, sha256)),
  }
}

/** This host's sealing fingerprints, read once per sealing key. */
const fingerprints = new WeakMap<SealingKey, Promise<string[]>>()
async function ownFingerprints(ctx: Pick<HostContext, 'db' | 'sealingKey'>): Promise<string[]> {
  let key: SealingKey
  try {
    key = await ctx.sealingKey()
  } catch {
    return [] // no usable key: no seal is this host's (sealing fails and says why)
  }
  let known = fingerprints.get(key)
  if (!known) {
    fingerprints.set(key, (known = sealingFingerprints(ctx.db, key)))
    known.catch(() => fingerprints.delete(key))
  }
  return known
}
