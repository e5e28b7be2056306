/**
 * Rows as the database returns them and their mappers to the API's shapes, for the rows that
 * several domain modules read: a leaf, so resources.ts and the operations both import it.
 */
import { iso } from '../db/index.js'

export interface DirectLinkRow {
  id: string
  envelope_id: string
  token: string
  enabled: boolean
  recipient_id: number
  created_at: Date | string
}

/** The link as the API shows it (the deployed clients' TemplateDirectLink shape). */
export const toDirectLink = (l: DirectLinkRow, templateNumber: number) => ({
  id: l.id,
  envelopeId: l.envelope_id,
  templateId: templateNumber,
  token: l.token,
  createdAt: iso(l.created_at)!,
  enabled: l.enabled,
  directTemplateRecipientId: l.recipient_id,
})
export type DirectLink = ReturnType<typeof toDirectLink>
