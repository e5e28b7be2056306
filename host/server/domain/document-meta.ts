import { z } from 'zod'
import { DEFAULT_DOCUMENT_META as PROTOCOL_DEFAULTS } from '../../../src/protocol/index.js'

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
})
export type DocumentMeta = z.infer<typeof DocumentMetaSchema>

export const DocumentMetaPatchSchema = DocumentMetaSchema.partial().strict()

/** The protocol's defaults, checked against the schema the API enforces. */
export const DEFAULT_DOCUMENT_META: DocumentMeta = DocumentMetaSchema.parse(PROTOCOL_DEFAULTS)
