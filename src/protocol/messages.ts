/** Messages from the iframe to the parent (docs/protocol.md, "Messages from an authoring page"). */

type WithExternalId = { externalId: string | null }

export type EnvelopeCreatedMessage = { type: 'envelope-created'; envelopeId: string } & WithExternalId
export type EnvelopeUpdatedMessage = { type: 'envelope-updated'; envelopeId: string } & WithExternalId
export type DocumentCreatedMessage = { type: 'document-created'; documentId: number } & WithExternalId
export type TemplateCreatedMessage = { type: 'template-created'; templateId: number } & WithExternalId
export type DocumentUpdatedMessage = { type: 'document-updated'; documentId: number } & WithExternalId
export type TemplateUpdatedMessage = { type: 'template-updated'; templateId: number } & WithExternalId

/** `commands`: the commands this page answers (a page that announces none answers none). */
export type EmbedReadyMessage = { type: 'embed-ready'; commands?: string[] }
export type EmbedErrorMessage = { type: 'embed-error'; code: EmbedErrorCode | (string & {}); message: string }
export type EmbedResizeMessage = { type: 'embed-resize'; height: number }
/**
 * Auto-height: the frame asks the parent to scroll so that this band of the frame (CSS px from the
 * frame's top) is inside the parent's viewport, moving as little as possible.
 */
export type EmbedScrollMessage = { type: 'embed-scroll'; top: number; height: number }
/**
 * Posted by the service's pages as they start, before their load event (to `*` until the options
 * name the parent: it carries nothing). A parent takes any message as proof that the frame holds
 * the service; only the load of a silent frame is reported (`NOT_A_SIGNING_SERVICE`).
 */
export type EmbedLoadingMessage = { type: 'embed-loading' }

export type BaseMessage =
  | EnvelopeCreatedMessage
  | EnvelopeUpdatedMessage
  | DocumentCreatedMessage
  | TemplateCreatedMessage
  | DocumentUpdatedMessage
  | TemplateUpdatedMessage
export type ExtensionMessage =
  | EmbedReadyMessage
  | EmbedErrorMessage
  | EmbedResizeMessage
  | EmbedScrollMessage
  | EmbedAnswerMessage
  | EmbedEventMessage
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
  /** Library-side: the frame loaded, said nothing, and the host does not answer this page at all. */
  'HOST_UNREACHABLE',
  /** Library-side: the frame loaded a page of the host that said nothing: not a signing service's page. */
  'NOT_A_SIGNING_SERVICE',
] as const
export type EmbedErrorCode = (typeof EMBED_ERROR_CODES)[number]

// ---- commands and events ---------------------------------------------------------------------

/** The authoring pages' steps. */
export type EditorStep = 'files' | 'recipients' | 'fields' | 'settings'

/** Something that keeps the envelope from being saved: where to fix it, and what it is. */
export interface EmbedProblem {
  /** The step where the user fixes it, when there is one. */
  step?: EditorStep
  /** The field it names (`recipients.0.email`), for a refusal by the service. */
  field?: string
  /** A stable key (`noFiles`, `email`, … or the service's error code). */
  code: string
  /** What the page shows, in the page's language. */
  message: string
}

/** Why a command failed: the page refused it (`REFUSED`, `NOT_READY`, `UNSUPPORTED`), or the library gave up (`TIMEOUT`). */
export type EmbedCommandErrorCode = 'NOT_READY' | 'REFUSED' | 'TIMEOUT' | 'UNSUPPORTED'

/** Parent to frame: run `command` with `args`; the page answers with the same `id`. */
export type EmbedCommandMessage = { type: 'embed-command'; id: number; command: string; args: unknown[] }

/** Why the page did not carry out a command. */
export interface EmbedCommandFailure {
  code: EmbedCommandErrorCode | (string & {})
  message: string
  /** With `REFUSED` by `save`: what keeps the envelope from being saved. */
  problems?: EmbedProblem[]
}

/** Frame to parent: the answer to command `id`. */
export type EmbedAnswerMessage =
  | { type: 'embed-answer'; id: number; ok: true; result?: unknown }
  | { type: 'embed-answer'; id: number; ok: false; error: EmbedCommandFailure }

/** The data of each event a page reports; `step-change` calls `onStepChange` and so on. */
export interface EmbedEvents {
  /** The authoring page shows another step. */
  'step-change': EditorStep
  /** The authoring page has (true) or no longer has (false) edits that are not saved. */
  'dirty-change': boolean
  /** The authoring page could not save: what stopped it. */
  'save-failed': EmbedProblem[]
}
export type EmbedEventMessage = { [K in keyof EmbedEvents]: { type: 'embed-event'; event: K; data: EmbedEvents[K] } }[keyof EmbedEvents]

/** The type of each event's data (the values are the page's own: checked for their type only). */
const EVENT_DATA: Record<string, string> = { 'step-change': 'string', 'dirty-change': 'boolean', 'save-failed': 'object' }

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
  'embed-ready': ({ commands: c }) => !c || Array.isArray(c),
  'embed-answer': ({ id: n, ok, error: e }) => id(n) && (ok === true || str((e as EmbedCommandFailure)?.code)),
  'embed-event': ({ event: e, data: d }) => Object.hasOwn(EVENT_DATA, e as string) && d !== null && typeof d === EVENT_DATA[e as string],
  'embed-error': (m) => str(m.code) && str(m.message),
  'embed-resize': (m) => px(m.height),
  'embed-scroll': (m) => px(m.top) && px(m.height),
}

/** The message if `data` is a well-formed one of ours, else null. Never throws. */
export function parseMessage(data: unknown): EmbedMessage | null {
  const m = data as Record<string, unknown> | null
  const check = typeof m?.type === 'string' && Object.hasOwn(CHECKS, m!.type as string) ? CHECKS[m!.type as EmbedMessageType] : null
  return check && check(m!) ? (m as EmbedMessage) : null
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

/** The command message if `data` is a well-formed one, else null. Never throws. */
export function parseCommandMessage(data: unknown): EmbedCommandMessage | null {
  const m = data as Record<string, unknown> | null
  return m?.type === 'embed-command' && id(m.id) && str(m.command) && Array.isArray(m.args) ? (m as EmbedCommandMessage) : null
}
