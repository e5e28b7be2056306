/**
 * The one reading of an envelope's audit log into each recipient's steps (src/protocol/evidence.ts
 * EvidenceStep): the evidence summary lists them, the signing certificate says them in words, and
 * the console's timeline shows them beside the entries they come from. Nothing else decides what
 * the log says of a recipient, so the three cannot tell it differently.
 */
import type { EvidenceStep } from '../../src/protocol/evidence.js'

/** An audit entry as API v2 lists it and the sealing reads it (only what the steps need). */
export interface RecordEntry {
  type: string
  createdAt: string
  /** The recipient who acted (null when the team or the service did). */
  recipientId: number | null
  data: Record<string, unknown> | null
}

/** One step, with the entry it comes from and the recipient it is about. */
export interface RecordStep<E extends RecordEntry = RecordEntry> {
  entry: E
  recipientId: number
  step: EvidenceStep
}

const COMPLETED_AS: Record<string, Extract<EvidenceStep, { kind: 'COMPLETED' }>['action']> = {
  SIGNER: 'SIGNED',
  APPROVER: 'APPROVED',
  VIEWER: 'VIEWED',
  ASSISTANT: 'ASSISTED',
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null)
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [])
const dataOf = (e: RecordEntry): Record<string, unknown> => e.data ?? {}
/**
 * The recipient an entry is about: the one its data names (a signer naming the next signer acts
 * about that next signer), else the one who acted.
 */
export const aboutRecipientId = (e: RecordEntry): number | null => {
  const named = dataOf(e).recipientId
  return typeof named === 'number' ? named : e.recipientId
}

/** Whether an EMAIL_SENT entry is a request to act (sent or sent again), not a reminder or the completed document. */
const isRequest = (e: RecordEntry) => e.type === 'EMAIL_SENT' && dataOf(e).emailType !== 'REMINDER' && dataOf(e).emailType !== 'DOCUMENT_COMPLETED'

/**
 * Every recipient's steps, in the log's order (`log` oldest first). A message's step names the
 * address it went to when the team corrected that address afterwards (`correctedTo`).
 */
export function recordSteps<E extends RecordEntry>(log: readonly E[]): RecordStep<E>[] {
  const requested = new Set(log.filter(isRequest).map(aboutRecipientId))
  /** Who opened at their present address: a new address is a new person, whose first opening counts again. */
  const opened = new Set<number | null>()
  const out: RecordStep<E>[] = []
  const push = (entry: E, recipientId: number | null, ...steps: EvidenceStep[]) => {
    if (recipientId !== null) for (const step of steps) out.push({ entry, recipientId, step })
  }
  log.forEach((entry, i) => {
    const d = dataOf(entry)
    const at = entry.createdAt
    const about = aboutRecipientId(entry)
    /** The address a later correction of this recipient's address moved `to` away from. */
    const corrected = (to: string | null) => (to ? correctionOf(log, i, about, to) : undefined)
    const mail = (to: string | null) => {
      const later = corrected(to)
      return { to, ...(later !== undefined && { correctedTo: later }) }
    }
    switch (entry.type) {
      case 'DOCUMENT_SENT':
        for (const id of Array.isArray(d.recipients) ? d.recipients : []) {
          if (typeof id === 'number' && !requested.has(id)) push(entry, id, { at, kind: 'LINK_CREATED' })
        }
        return
      case 'EMAIL_SENT': {
        const email = d.emailType === 'REMINDER' ? 'REMINDER' : d.emailType === 'DOCUMENT_COMPLETED' ? 'COMPLETED' : 'REQUEST'
        return push(entry, about, { at, kind: 'EMAIL_SENT', email, ...mail(text(d.recipientEmail)) })
      }
      case 'RECIPIENT_AUTH_CODE_SENT':
        return push(entry, about, { at, kind: 'CODE_SENT', purpose: text(d.purpose), ...mail(text(d.recipientEmail)) })
      case 'DOCUMENT_OPENED': {
        const first = !opened.has(about)
        opened.add(about)
        const checks = strings(d.accessAuth).map((method): EvidenceStep => ({ at, kind: 'VERIFIED', stage: 'access', method }))
        return push(entry, about, ...(first ? [{ at, kind: 'OPENED' } as const] : []), ...checks)
      }
      case 'RECIPIENT_AUTH_FAILED':
        return push(entry, about, { at, kind: 'VERIFICATION_FAILED', stage: text(d.stage), method: text(d.method) })
      case 'RECIPIENT_AUTH_LOCKED':
        return push(entry, about, { at, kind: 'LOCKED', until: text(d.until) })
      case 'RECIPIENT_CONSENT_GIVEN': {
        const version = d.disclosureVersion
        return push(entry, about, {
          at,
          kind: 'CONSENTED',
          disclosureVersion: typeof version === 'number' || typeof version === 'string' ? version : null,
          disclosureHash: text(d.disclosureHash),
        })
      }
      case 'RECIPIENT_UPDATED': {
        const changes = (Array.isArray(d.changes) ? (d.changes as { type?: unknown; from?: unknown; to?: unknown }[]) : [])
          .filter((c) => c?.type === 'NAME' || c?.type === 'EMAIL')
          .map((c) => ({ field: c.type as 'NAME' | 'EMAIL', from: text(c.from), to: text(c.to) }))
        if (changes.some((c) => c.field === 'EMAIL')) opened.delete(about)
        return changes.length ? push(entry, about, { at, kind: 'CORRECTED', changes }) : undefined
      }
      case 'DOCUMENT_RECIPIENT_COMPLETED':
        return push(entry, about, ...verified(at, d.actionAuth), { at, kind: 'COMPLETED', action: COMPLETED_AS[String(d.recipientRole)] ?? 'SIGNED' })
      case 'DOCUMENT_RECIPIENT_REJECTED': {
        const reason = text(d.reason)?.trim() || null
        return push(entry, about, ...verified(at, d.actionAuth), { at, kind: 'REJECTED', reason })
      }
      case 'DOCUMENT_RECIPIENT_EXPIRED':
        return push(entry, about, { at, kind: 'EXPIRED' })
    }
  })
  return out
}

const verified = (at: string, methods: unknown): EvidenceStep[] => strings(methods).map((method) => ({ at, kind: 'VERIFIED', stage: 'action', method }))

/** The address that replaced `address` for this recipient after entry `i` (the last one it led to), if any. */
function correctionOf(log: readonly RecordEntry[], i: number, recipientId: number | null, address: string): string | undefined {
  let current = address
  let moved = false
  for (const later of log.slice(i + 1)) {
    if (later.type !== 'RECIPIENT_UPDATED' || aboutRecipientId(later) !== recipientId) continue
    const change = (Array.isArray(dataOf(later).changes) ? (dataOf(later).changes as { type?: unknown; from?: unknown; to?: unknown }[]) : []).find(
      (c) => c?.type === 'EMAIL' && c.from === current && typeof c.to === 'string',
    )
    if (change) {
      current = change.to as string
      moved = true
    }
  }
  return moved && current !== address ? current : undefined
}

/** One recipient's steps, oldest first. */
export const stepsOf = (steps: readonly RecordStep[], recipientId: number | undefined): EvidenceStep[] =>
  recipientId === undefined ? [] : steps.filter((s) => s.recipientId === recipientId).map((s) => s.step)
