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
/**
 * Auto-height: the frame asks the parent to scroll so that this band of the frame (CSS px from the
 * frame's top) is inside the parent's viewport, moving as little as possible.
 */
export type EmbedScrollMessage = { type: 'embed-scroll'; top: number; height: number }

export type BaseMessage =
  | EnvelopeCreatedMessage
  | EnvelopeUpdatedMessage
  | DocumentCreatedMessage
  | TemplateCreatedMessage
  | DocumentUpdatedMessage
  | TemplateUpdatedMessage
export type ExtensionMessage = EmbedReadyMessage | EmbedErrorMessage | EmbedResizeMessage | EmbedScrollMessage
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

import { id, str } from './check.js'
const ext = (v: unknown) => v === null || v === undefined || str(v)
const px = (v: unknown) => typeof v === 'number' && v >= 0 && v < 1e6

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
  'embed-resize': (m) => px(m.height),
  'embed-scroll': (m) => px(m.top) && px(m.height),
}

/** The message if `data` is a well-formed one of ours, else null. Never throws. */
export function parseMessage(data: unknown): EmbedMessage | null {
  if (!data || typeof data !== 'object') return null
  const m = data as Record<string, unknown>
  const check = typeof m.type === 'string' && Object.hasOwn(CHECKS, m.type) ? CHECKS[m.type as EmbedMessageType] : null
  return check && check(m) ? (m as EmbedMessage) : null
}

// ---- from the parent to the frame ------------------------------------------------------------

/**
 * Auto-height: the parent's viewport as a band of the frame, in CSS px from the frame's top:
 * `top` is negative while the frame's top is below the viewport's, `top + height` beyond the
 * frame's height while its bottom is above the viewport's bottom. What the user sees of the frame
 * is that band intersected with the frame. The library posts it on scroll and resize, at most once
 * per animation frame and after each new height, only while `autoHeight` is on; the page places
 * its dialogs, toasts and guidance in the visible part. A page that never receives one uses its
 * own viewport.
 */
export type EmbedViewportMessage = { type: 'embed-viewport'; top: number; height: number }

/** The viewport message if `data` is a well-formed one, else null. Never throws. */
export function parseViewportMessage(data: unknown): EmbedViewportMessage | null {
  if (!data || typeof data !== 'object') return null
  const m = data as Record<string, unknown>
  const { top, height } = m
  return m.type === 'embed-viewport' && typeof top === 'number' && Math.abs(top) < 1e7 && px(height)
    ? { type: 'embed-viewport', top, height: height as number }
    : null
}
