import { z } from 'zod'
import { DEFAULT_DOCUMENT_META as PROTOCOL_DEFAULTS } from '../../../../src/protocol/index.js'

const Period = <U extends string>(units: [U, ...U[]]) => z.object({ unit: z.enum(units), amount: z.int().min(1).max(365) }).strict()
const Disabled = z.object({ disabled: z.literal(true) }).strict()

/** documentMeta (src/protocol/api.ts): every key always present, with these defaults. */
export const DocumentMetaSchema = z.object({
  subject: z.string().max(255).nullable(),
  message: z.string().max(5000).nullable(),
  timezone: z.string().min(1).max(100),
  dateFormat: z.string().min(1).max(100),
  redirectUrl: z.url({ protocol: /^https?$/ }).nullable(),
  signingOrder: z.enum(['PARALLEL', 'SEQUENTIAL']),
  allowDictateNextSigner: z.boolean(),
  typedSignatureEnabled: z.boolean(),
  uploadSignatureEnabled: z.boolean(),
  drawSignatureEnabled: z.boolean(),
  language: z.string().min(2).max(10),
  distributionMethod: z.enum(['EMAIL', 'NONE']),
  emailSettings: z.record(z.string(), z.boolean()).nullable(),
  envelopeExpirationPeriod: z.union([Period(['day', 'week', 'month', 'year']), Disabled]).nullable(),
  reminderSettings: z
    .object({
      sendAfter: z.union([Period(['day', 'week', 'month']), Disabled]),
      repeatEvery: z.union([Period(['day', 'week', 'month']), Disabled]),
    })
    .strict()
    .nullable(),
  /** The sealed PDF ends with the signing certificate (default) and/or the audit log. */
  includeSigningCertificate: z.boolean(),
  includeAuditLog: z.boolean(),
})
export type DocumentMeta = z.infer<typeof DocumentMetaSchema>

export const DocumentMetaPatchSchema = DocumentMetaSchema.partial().strict()

/** The protocol's defaults, checked against the schema the API enforces. */
export const DEFAULT_DOCUMENT_META: DocumentMeta = DocumentMetaSchema.parse(PROTOCOL_DEFAULTS)
