/** Messages from the iframe to the parent (PROTOCOL.md "Messages" and "Extensions"). */

type WithExternalId = { externalId: string | null }

export type EnvelopeCreatedMessage = { type: 'envelope-created'; envelopeId: string } & WithExternalId
export type EnvelopeUpdatedMessage = { type: 'envelope-updated'; envelopeId: string } & WithExternalId
export type DocumentCreatedMessage = { type: 'document-created'; documentId: number } & WithExternalId
export type TemplateCreatedMessage = { type: 'template-created'; templateId: number } & WithExternalId
export type DocumentUpdatedMessage = { type: 'document-updated'; documentId: number } & WithExternalId
export type TemplateUpdatedMessage = { type: 'template-updated'; templateId: number } & WithExternalId

export type EmbedReadyMessage = { type: 'embed-ready' }
export type EmbedErrorMessage = { type: 'embed-error'; code: EmbedErrorCode | (string & {}); message: string }
export type EmbedResizeMessage = { type: 'embed-resize'; height: number }

export type BaseMessage =
  | EnvelopeCreatedMessage
  | EnvelopeUpdatedMessage
  | DocumentCreatedMessage
  | TemplateCreatedMessage
  | DocumentUpdatedMessage
  | TemplateUpdatedMessage
export type ExtensionMessage = EmbedReadyMessage | EmbedErrorMessage | EmbedResizeMessage
export type EmbedMessage = BaseMessage | ExtensionMessage
export type EmbedMessageType = EmbedMessage['type']

export const EMBED_ERROR_CODES = [
  'INVALID_TOKEN',
  'TOKEN_EXPIRED',
  'NOT_FOUND',
  'FORBIDDEN',
  'INVALID_OPTIONS',
  'INTERNAL',
  /** Library-side: nothing arrived from the frame in time. */
  'TIMEOUT',
] as const
export type EmbedErrorCode = (typeof EMBED_ERROR_CODES)[number]

const str = (v: unknown) => typeof v === 'string'
const id = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v > 0
const ext = (v: unknown) => v === null || v === undefined || str(v)

/** For each message type, the check of its keys beyond `type`. */
const CHECKS: Record<EmbedMessageType, (m: Record<string, unknown>) => boolean> = {
  'envelope-created': (m) => str(m.envelopeId) && ext(m.externalId),
  'envelope-updated': (m) => str(m.envelopeId) && ext(m.externalId),
  'document-created': (m) => id(m.documentId) && ext(m.externalId),
  'template-created': (m) => id(m.templateId) && ext(m.externalId),
  'document-updated': (m) => id(m.documentId) && ext(m.externalId),
  'template-updated': (m) => id(m.templateId) && ext(m.externalId),
  'embed-ready': () => true,
  'embed-error': (m) => str(m.code) && str(m.message),
  'embed-resize': (m) => typeof m.height === 'number' && m.height >= 0 && m.height < 1e6,
}

/** The message if `data` is a well-formed one of ours, else null. Never throws. */
export function parseMessage(data: unknown): EmbedMessage | null {
  if (!data || typeof data !== 'object') return null
  const m = data as Record<string, unknown>
  const check = typeof m.type === 'string' && Object.hasOwn(CHECKS, m.type) ? CHECKS[m.type as EmbedMessageType] : null
  return check && check(m) ? (m as EmbedMessage) : null
}
