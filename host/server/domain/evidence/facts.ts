/**
 * What `/verify` needs of an evidence file (a compact JWS of domain/evidence/evidence.ts), read in the verify
 * lane (workers/verify-lane.ts): the file comes from anyone, so its decoding, its signature check
 * and the parsing of its payload never run on the request loop. Only these few facts come back.
 */
import { checkJws } from '../../pdf/jws.js'
import { EVIDENCE_VERSION, type Evidence } from '../../../../src/protocol/evidence.js'

export interface EvidenceFacts {
  envelopeId: string
  generatedAt: string | null
  /** The hashes of its documents, original and sealed. */
  documents: { originalSha256: string | null; sealedSha256: string | null }[]
  /** The audit log's head as the summary recorded it. */
  auditLog: { head: string | null; entries: number }
}

const hash = (v: unknown) => (typeof v === 'string' ? v.slice(0, 128) : null)

/** The facts of an evidence file signed with one of `trusted` (sealing certificates' SHA-256 fingerprints), or why it is refused. */
export function evidenceFactsHere(jws: string, trusted: readonly string[]): { facts: EvidenceFacts } | { reason: string } {
  const checked = checkJws(jws, trusted)
  if (!checked.ok) return { reason: checked.reason }
  const evidence = checked.payload as Partial<Evidence> | null
  if (evidence?.version !== EVIDENCE_VERSION || typeof evidence.envelope?.id !== 'string') return { reason: 'not an evidence summary of this service' }
  const documents = Array.isArray(evidence.documents) ? evidence.documents : []
  const log = evidence.auditLog
  return {
    facts: {
      envelopeId: evidence.envelope.id.slice(0, 100),
      generatedAt: typeof evidence.generatedAt === 'string' ? evidence.generatedAt.slice(0, 40) : null,
      documents: documents.map((d) => ({ originalSha256: hash(d?.originalSha256), sealedSha256: hash(d?.sealedSha256) })),
      auditLog: { head: hash(log?.head), entries: typeof log?.entries === 'number' && Number.isSafeInteger(log.entries) ? log.entries : 0 },
    },
  }
}
