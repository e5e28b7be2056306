/** The parts of API v2's envelope the console shows. */
export interface Recipient {
  id: number
  email: string
  name: string
  role: string
  readStatus: string
  signingStatus: string
  sendStatus: string
  signedAt: string | null
  rejectionReason: string | null
}
export interface Envelope {
  id: string
  type: 'DOCUMENT' | 'TEMPLATE'
  status: string
  title: string
  visibility: string
  createdAt: string
  completedAt: string | null
  recipients: Recipient[]
  envelopeItems: { id: string; title: string }[]
  secondaryId: string
  directLink: { token: string; enabled: boolean } | null
}
export interface AuditEntry {
  id: string
  type: string
  createdAt: string
  name: string | null
  email: string | null
  data: Record<string, unknown>
}
export interface Page<T> {
  data: T[]
  count: number
  currentPage: number
  totalPages: number
}
/** The legacy number of a document or template (document_12 -> 12), which the deprecated routes take. */
export const numberOf = (e: Pick<Envelope, 'secondaryId'>) => Number(e.secondaryId.split('_').pop())
