/**
 * The evidence summary of one envelope (docs/sealing.md, "Evidence summary"): its documents'
 * hashes, each recipient's delivery, proofs, consent and outcome as the audit log records them,
 * the seal as the sealed file carries it, and the audit chain's head. Signed as a JWS with the
 * sealing key (pdf/jws.ts); `/verify` checks such a file (evidenceCheck below).
 */
import type { Principal } from '../../auth/principal.js'
import { iso, type Queryable } from '../../db/index.js'
import type { SignatureReport } from '../../pdf/signature-report.js'
import { runHeavy } from '../../workers/heavy.js'
import { runEvidenceCheck } from '../../workers/verify-lane.js'
import {
  EVIDENCE_VERSION,
  type Evidence,
  type EvidenceCheck,
  type EvidenceProof,
  type EvidenceRecipient,
  type EvidenceRedactedField,
  type EvidenceSeal,
  type EvidenceStep,
} from '../../../../src/protocol/evidence.js'
import { aboutRecipientId, recordSteps, type RecordStep } from '../../../shared/record-steps.js'
import { auditPage, type AuditEntry } from './audit.js'
import { checkAuditChain, readAuditChain, type RedactedField } from './audit-chain.js'
import type { EvidenceFacts } from './facts.js'
import { fileBytes } from '../item/files.js'
import type { EnvelopeRow, RecipientRow } from '../common/rows.js'
import { findEnvelope } from '../envelope/lookup.js'

/** The audit-log entries read for one summary (as the evidence pages read them). */
const MAX_AUDIT_ENTRIES = 10_000


/** The summary of an envelope the principal may see (404 otherwise), in any status. */
export async function envelopeEvidence(db: Queryable, p: Principal, envelopeId: string, now: Date): Promise<Evidence> {
  const e = await findEnvelope(db, p, envelopeId)
  return evidenceOf(db, e, now)
}

async function evidenceOf(db: Queryable, e: EnvelopeRow, now: Date): Promise<Evidence> {
  const items = await db.query<{ id: string; title: string; sha256: string; sealed_id: string | null; sealed_sha256: string | null; sealed_bytes: Uint8Array | null }>(
    // A purged envelope's items name no file any more but keep the hashes of those they named.
    `select i.id, i.title, coalesce(d.sha256, i.purged_sha256) as sha256, s.id as sealed_id,
       coalesce(s.sha256, i.purged_sealed_sha256) as sealed_sha256, s.bytes as sealed_bytes
     from envelope_items i left join document_data d on d.id = i.document_data_id left join document_data s on s.id = i.signed_document_data_id
     where i.envelope_id = $1 order by i.item_order, i.created_at, i.id`,
    [e.id],
  )
  const recipients = await db.query<RecipientRow>('select * from recipients where envelope_id = $1 order by signing_order nulls last, id', [e.id])
  const log = (await auditPage(db, e.id, { page: 1, perPage: MAX_AUDIT_ENTRIES, desc: false })).data
  const { check: chain, redactions } = await readAuditChain(db, e.id)
  const steps = recordSteps(log)
  const first = items[0]
  const sealed = first?.sealed_id && items.every((i) => i.sealed_id) ? first : null
  return {
    version: EVIDENCE_VERSION,
    generatedAt: now.toISOString(),
    envelope: { id: e.id, title: e.title, status: e.status, createdAt: iso(e.created_at)!, completedAt: iso(e.completed_at) },
    documents: items.map((i) => ({ id: i.id, title: i.title, originalSha256: i.sha256, sealedSha256: i.sealed_sha256 })),
    recipients: recipients.map((r) => recipientEvidence(r, log, steps, redactions, !!e.purged_at)),
    seal: sealed ? await sealOf(await fileBytes(db, { sha256: sealed.sealed_sha256!, bytes: sealed.sealed_bytes })) : null,
    auditLog: {
      ...(chain.ok ? { intact: true, head: chain.head, entries: chain.entries } : { intact: false, head: null, entries: chain.entries }),
      ...(redactions.size ? { redacted: redactions.size } : {}),
    },
    // Past its team's retention: files gone, personal data redacted (domain/retention/retention.ts).
    ...(e.purged_at ? { redacted: true as const, purgedAt: iso(e.purged_at)! } : {}),
  }
}

/**
 * One recipient's facts: their steps as the audit log records them (../../shared/record-steps.ts,
 * which the certificate and the console read too), the fields drawn from those steps, and where
 * they acted from; each value a redaction emptied marked as such.
 */
function recipientEvidence(r: RecipientRow, log: AuditEntry[], steps: RecordStep<AuditEntry>[], redactions: Map<string, RedactedField[]>, purged: boolean): EvidenceRecipient {
  const cut = (a: AuditEntry | undefined, field: RedactedField) => !!a && !!redactions.get(a.id)?.includes(field)
  const mine = steps.filter((s) => s.recipientId === r.id)
  const first = <K extends EvidenceStep['kind']>(kind: K, test: (s: Extract<EvidenceStep, { kind: K }>) => boolean = () => true) =>
    mine.find((s): s is RecordStep<AuditEntry> & { step: Extract<EvidenceStep, { kind: K }> } => s.step.kind === kind && test(s.step as Extract<EvidenceStep, { kind: K }>))
  const requested = mine.find((s) => s.step.kind === 'LINK_CREATED' || (s.step.kind === 'EMAIL_SENT' && s.step.email === 'REQUEST'))
  const sent = log.find((a) => a.type === 'DOCUMENT_SENT')
  const opened = first('OPENED')
  const consent = first('CONSENTED')
  const completed = first('COMPLETED')
  const rejected = first('REJECTED')
  const acted = (completed ?? rejected)?.entry
  const from = acted && acted.recipientId !== null ? acted : opened?.entry
  const proofs: EvidenceProof[] = mine.flatMap(({ step }) => (step.kind === 'VERIFIED' ? [{ stage: step.stage, method: step.method, at: step.at }] : []))
  const redacted: EvidenceRedactedField[] = [
    ...(purged ? (['name', 'email'] as const) : []),
    ...(cut(from, 'ip_address') ? (['ipAddress'] as const) : []),
    ...(cut(from, 'user_agent') ? (['userAgent'] as const) : []),
    ...(log.some((a) => aboutRecipientId(a) === r.id && ['DOCUMENT_OPENED', 'DOCUMENT_RECIPIENT_COMPLETED', 'DOCUMENT_RECIPIENT_REJECTED'].includes(a.type) && cut(a, 'data'))
      ? (['proofs'] as const)
      : []),
    ...(cut(consent?.entry, 'data') ? (['consent'] as const) : []),
    ...(cut(rejected?.entry, 'data') ? (['reason'] as const) : []),
    // Steps whose details (an address, a method, a reason) went with the purge.
    ...(log.some((a) => aboutRecipientId(a) === r.id && cut(a, 'data')) ? (['history'] as const) : []),
  ]
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    role: r.role,
    sentAt: requested?.step.at ?? (r.send_status === 'SENT' ? (sent?.createdAt ?? null) : null),
    firstOpenedAt: opened?.step.at ?? null,
    proofs,
    consent: consent ? { at: consent.step.at, disclosureVersion: consent.step.disclosureVersion, disclosureHash: consent.step.disclosureHash } : null,
    ipAddress: from?.ipAddress ?? null,
    userAgent: from?.userAgent ?? null,
    outcome: completed
      ? { status: 'SIGNED', at: completed.step.at, reason: null }
      : rejected
        ? { status: 'REJECTED', at: rejected.step.at, reason: rejected.step.reason }
        : null,
    history: mine.map((s) => s.step),
    ...(redacted.length ? { redacted } : {}),
  }
}

/** The seal as the sealed file carries it: its level, certificate, signing time and timestamps. */
async function sealOf(bytes: Uint8Array): Promise<EvidenceSeal> {
  const { signatures } = await runHeavy('verify', { bytes }, { failure: (why) => new Error(`the sealed file cannot be read: ${why}`) })
  const seal: SignatureReport | undefined = signatures.find((s) => s.kind === 'signature')
  const timestamps = [seal?.timestamp?.time, ...signatures.filter((s) => s.kind === 'document-timestamp').map((s) => s.timestamp?.time)]
  return {
    level: seal?.level ?? null,
    certificateFingerprint: seal?.certificate?.sha256Fingerprint ?? null,
    signedAt: seal?.signedAt ?? null,
    timestamps: timestamps.filter((t): t is string => Boolean(t)),
  }
}

export type { EvidenceCheck }

/**
 * Checks an evidence JWS against the trusted sealing fingerprints (in the verify lane: the file is
 * anyone's, facts.ts) and, when valid, the database (and the PDF's hash, when given).
 */
export async function evidenceCheck(db: Queryable, jws: string, trusted: readonly string[], pdfSha256: string | null): Promise<EvidenceCheck> {
  const checked = await runEvidenceCheck(jws, trusted)
  if ('reason' in checked) return { valid: false, reason: checked.reason, envelopeId: null, generatedAt: null, pdf: null, auditLog: null }
  const { envelopeId, generatedAt, documents, auditLog } = checked.facts
  const as = pdfSha256 === null ? null : documents.some((d) => d.sealedSha256 === pdfSha256) ? 'sealed' : documents.some((d) => d.originalSha256 === pdfSha256) ? 'original' : null
  return {
    valid: true,
    envelopeId,
    generatedAt,
    pdf: pdfSha256 === null ? null : { matches: as !== null, as },
    auditLog: await logAgainst(db, envelopeId, auditLog),
  }
}

async function logAgainst(db: Queryable, envelopeId: string, recorded: EvidenceFacts['auditLog']): Promise<EvidenceCheck['auditLog']> {
  const [exists] = await db.query('select 1 from audit_logs where envelope_id = $1 limit 1', [envelopeId])
  if (!exists) return null
  const chain = await checkAuditChain(db, envelopeId)
  const entries = recorded.entries
  let headMatches = false
  if (recorded.head && entries > 0) {
    const [row] = await db.query<{ hash: string }>('select hash from audit_logs a where envelope_id = $1 order by a.id offset $2 limit 1', [envelopeId, entries - 1])
    headMatches = row?.hash === recorded.head
  }
  return { intact: chain.ok && headMatches, headMatches, entriesSince: Math.max(0, chain.entries - entries) }
}
