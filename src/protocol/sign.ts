/**
 * The recipient side of the wire (docs/protocol.md, "The signing pages"): the signing page's URL and
 * options, the `{action, data}` messages it posts, and the signing API the pages call.
 */
import { encodeOptions, type EmbedCssVars } from './options.js'
import { id, str } from './check.js'
import type { DocumentMeta, EnvelopeStatus, Field, FieldType, RecipientRole, SigningStatus, ReadStatus } from './api.js'

/** `/sign/{token}` is the link recipients get; `/embed/sign/{token}` is the same page for iframes. */
// The embed paths on their own, so that a bundle with the components carries no page paths.
const SIGN_EMBED = '/embed/sign/:token'
const DIRECT_EMBED = '/embed/direct/:token'

export const SIGN_ROUTES = {
  page: '/sign/:token',
  embed: SIGN_EMBED,
} as const

export function signPath(kind: keyof typeof SIGN_ROUTES, token: string): string {
  return SIGN_ROUTES[kind].replace(':token', encodeURIComponent(token))
}

/**
 * A template's direct link: `/d/{token}` to share, `/embed/direct/{token}?externalId=…#{options}`
 * in an iframe. The same signing page, where the visitor also gives their name and e-mail.
 */
export const DIRECT_ROUTES = {
  page: '/d/:token',
  embed: DIRECT_EMBED,
} as const

/**
 * One person signing several documents in one frame (the deployed library's EmbedMultiSignDocument):
 * `/embed/v1/multisign?token=a&token=b#{options}`, a recipient token per document.
 */
export const MULTISIGN_ROUTE = '/embed/v1/multisign'

/** What became of one document of a multi-sign frame. */
export type DocumentOutcome = SignedData & { action: 'document-completed' | 'document-rejected'; reason?: string }

/** The multi-sign page's last message, once every document has been signed or rejected. */
export interface AllDocumentsCompleted {
  action: 'all-documents-completed'
  data: { documents: DocumentOutcome[] }
}

/**
 * The multi-sign page, each time the signer signs or rejects one of its documents: that document,
 * and how many of the frame's `total` are now `done` (documents done before the frame opened count).
 */
export interface SignerCompleted {
  action: 'signer-completed'
  data: DocumentOutcome & { done: number; total: number }
}

/** `{host}/embed/v1/multisign?token=a&token=b#{encodedOptions}`, as the deployed library builds it. */
export function buildMultiSignUrl(args: { host: string; tokens: string[]; options: SignOptions }): string {
  const query = args.tokens.map((t) => `token=${encodeURIComponent(t)}`).join('&')
  return `${args.host.replace(/\/+$/, '')}${MULTISIGN_ROUTE}?${query}#${encodeOptions(args.options)}`
}

/** `{host}/embed/direct/{token}[?externalId=…]#{encodedOptions}`, as the deployed library builds it. */
export function buildDirectUrl(args: { host: string; token: string; externalId?: string | undefined; options: SignOptions }): string {
  const query = args.externalId ? `?externalId=${encodeURIComponent(args.externalId)}` : ''
  return `${args.host.replace(/\/+$/, '')}${DIRECT_EMBED.replace(':token', encodeURIComponent(args.token))}${query}#${encodeOptions(args.options)}`
}

/** Options in the hash of the signing embed. */
export interface SignOptions {
  name?: string
  email?: string
  lockName?: boolean
  lockEmail?: boolean
  /** Show the reject action to every recipient who acts (CC recipients never reject). Default true. */
  allowDocumentRejection?: boolean
  css?: string
  cssVars?: EmbedCssVars
  darkModeDisabled?: boolean
  language?: string
  /** Extension: the embedding page's origin. */
  parentOrigin?: string
}

/** `{host}/embed/sign/{token}#{encodedOptions}`. */
export function buildSignUrl(args: { host: string; token: string; options: SignOptions }): string {
  return `${args.host.replace(/\/+$/, '')}${SIGN_EMBED.replace(':token', encodeURIComponent(args.token))}#${encodeOptions(args.options)}`
}

// ---- messages --------------------------------------------------------------------------------

export interface SignedData {
  token: string
  /** The legacy numeric id of the document (`document_42` -> 42). */
  documentId: number
  recipientId: number
  /** Ours: the envelope id. */
  envelopeId?: string
}
export type RejectedData = SignedData & { reason: string }

export type SignMessage =
  | { action: 'document-ready'; data?: undefined }
  | { action: 'field-signed'; data?: undefined }
  | { action: 'field-unsigned'; data?: undefined }
  | { action: 'document-completed'; data: SignedData }
  | { action: 'document-rejected'; data: RejectedData }
  | { action: 'document-error'; data: string }
  /** The recipient is asked to prove who they are: before the document (`access`) or to act (`action`). */
  | { action: 'auth-required'; data: 'access' | 'action' }
  /** What they gave did not check out: the service's code (AUTH_FAILED, CODE_EXPIRED, TOO_MANY_ATTEMPTS...). */
  | { action: 'auth-failed'; data: string }
  /** Sequential signing: someone before this recipient has still to act (`onWaitingForTurn`). */
  | { action: 'document-waiting-for-turn'; data: null }
  /** This recipient's link passed its deadline (`onLinkExpired`). */
  | { action: 'recipient-expired'; data: null }
  | SignerCompleted
  | AllDocumentsCompleted
export type SignAction = SignMessage['action']

const signed = (d: unknown): d is Record<string, unknown> => {
  const m = d as Record<string, unknown> | null
  return str(m?.token) && id(m!.documentId) && id(m!.recipientId) && (m!.envelopeId === undefined || str(m!.envelopeId))
}

const outcome = (d: unknown): d is Record<string, unknown> =>
  signed(d) && (d.action === 'document-completed' || (d.action === 'document-rejected' && (d.reason === undefined || str(d.reason))))

const none = (d: unknown) => d === null

const SIGN_CHECKS: Record<SignAction, (data: unknown) => boolean> = {
  'document-ready': () => true,
  'field-signed': () => true,
  'field-unsigned': () => true,
  'document-completed': signed,
  'document-rejected': (d) => signed(d) && str(d.reason),
  'document-error': str,
  'auth-required': str,
  'auth-failed': str,
  'document-waiting-for-turn': none,
  'recipient-expired': none,
  'signer-completed': (d) => outcome(d) && id(d.done) && id(d.total),
  'all-documents-completed': (d) => Array.isArray((d as { documents?: unknown } | null)?.documents) && (d as { documents: unknown[] }).documents.every(outcome),
}

/** The message a signing page posts when it shows a state the parent hears of as a moment of its own. */
export const STATE_MOMENTS: Partial<Record<SigningState, 'document-waiting-for-turn' | 'recipient-expired'>> = {
  NOT_YOUR_TURN: 'document-waiting-for-turn',
  EXPIRED: 'recipient-expired',
}

/** The message if `data` is a well-formed `{action, data}` one, else null. Never throws. */
export function parseSignMessage(data: unknown): SignMessage | null {
  const m = data as Record<string, unknown> | null
  const check = typeof m?.action === 'string' && Object.hasOwn(SIGN_CHECKS, m!.action as string) ? SIGN_CHECKS[m!.action as SignAction] : null
  return check && check(m!.data) ? (m as SignMessage) : null
}

// ---- the signing API (host: /api/signing, `Authorization: Bearer <recipient token>`) ---------

/**
 * What the page shows. READY: the recipient may act now. The others are end or wait screens:
 * NOT_YOUR_TURN (sequential, someone before has not completed), ALREADY_COMPLETED (this
 * recipient is done, the envelope is not), COMPLETED (the envelope is: download), REJECTED,
 * CANCELLED, EXPIRED (this recipient's link deadline passed), NOT_SENT (still a draft).
 */
export type SigningState =
  | 'READY'
  | 'NOT_YOUR_TURN'
  | 'ALREADY_COMPLETED'
  | 'COMPLETED'
  | 'REJECTED'
  | 'CANCELLED'
  | 'EXPIRED'
  | 'NOT_SENT'

/** A field of the signing recipient: the Field resource without its envelope and recipient ids. */
export interface SigningField extends Omit<Field, 'envelopeId' | 'recipientId' | 'inserted' | 'customText'> {
  inserted: boolean
  /** The value once inserted (signature fields: a PNG data URL). */
  customText: string | null
}

export interface SigningSession {
  state: SigningState
  /** A template's direct link: the visitor gives their name and e-mail, and signing makes the document. */
  direct?: boolean
  envelope: {
    id: string
    documentId: number
    title: string
    status: EnvelopeStatus
    documentMeta: DocumentMeta
    /** The sender chose `documentMeta.language`; false: it is the default, and the page speaks the signer's browser's language. */
    languageChosen: boolean
    completedAt: string | null
    items: { id: string; title: string; order: number; pageCount: number }[]
    /** Only once the envelope was purged at the end of its team's retention: when. Its files are gone (410 DOCUMENT_PURGED). */
    purgedAt?: string
  }
  recipient: {
    id: number
    name: string
    email: string
    role: RecipientRole
    readStatus: ReadStatus
    signingStatus: SigningStatus
    signedAt: string | null
    rejectionReason: string | null
    signingOrder: number | null
    expiresAt: string | null
  }
  /** This recipient's fields. */
  fields: SigningField[]
  /** Sequential order with allowDictateNextSigner: the next recipient, whose name/e-mail this one may change. */
  nextSigner: { id: number; name: string; email: string } | null
  /** NOT_YOUR_TURN: who has still to act before this recipient. */
  waitingFor: { name: string; email: string }[]
  /** The sending team's logo (a same-origin path), brand colour (#rrggbb) and name, when it set either. */
  branding?: { logoUrl: string | null; color: string | null; name: string } | null
  /**
   * A direct link only: the template's other recipients that are roles with no address yet
   * ("Witness"); the visitor names the person of each (`DirectCompleteRequest.roles`).
   */
  roles?: { id: number; name: string; role: RecipientRole }[]
  /**
   * Only when this recipient's fields carry conditions or formulas (`fieldMeta.condition`,
   * `fieldMeta.formula`): the other recipients' fields that this recipient's fields' conditions and
   * formulas read, by label, transitively. Of each only what the logic needs: its label, options,
   * condition and formula, and `value`, its stored text once inserted (a CHECKBOX's: the JSON array
   * of its checked options), else null. No other field of theirs is listed.
   */
  logicFields?: SigningLogicField[]
}

/** Another recipient's field as a signing page's conditions and formulas read it (`SigningSession.logicFields`). */
export interface SigningLogicField {
  id: number
  type: FieldType
  fieldMeta: { label: string; options?: string[]; condition?: unknown; formula?: unknown }
  value: string | null
}

/**
 * A field's value in `POST /api/signing/complete`: CHECKBOX takes the checked options; SIGNATURE,
 * INITIALS and FREE_SIGNATURE a `data:image/png;base64,` URL; DATE is stamped by the service
 * (any value sent is ignored); every other type a string.
 */
export type SigningFieldValue = string | string[]

export interface SigningCompleteRequest {
  fields: { id: number; value: SigningFieldValue }[]
  /** Only where `nextSigner` was offered. */
  nextSigner?: { name: string; email: string }
}

/** A direct link's completion: the visitor's name and e-mail, and the new document's external id. */
export interface DirectCompleteRequest extends SigningCompleteRequest {
  signer: { name: string; email: string }
  /** The person of each role the session lists in `roles`, by its template recipient id. */
  roles?: { id: number; name: string; email: string }[]
  externalId?: string
}

export interface SigningResult {
  /** The envelope's status afterwards (COMPLETED when this was the last action needed). */
  status: EnvelopeStatus
  redirectUrl: string | null
}

/** The signing page's answer to the `nextField` command: the field it moved to and focused. */
export interface SigningFieldTarget {
  id: number
  type: FieldType
  /** The field's name as the page shows it (its label, or its type's name), in the page's language. */
  label: string
  /** Its page in its file (from 1). */
  page: number
}

/** Field types whose value is an image. */
export const SIGNATURE_FIELD_TYPES: readonly FieldType[] = ['SIGNATURE', 'FREE_SIGNATURE', 'INITIALS']

/** A direct link's result: the document made for the visitor, and their own signing token on it. */
export interface DirectSigningResult extends SigningResult, Required<SignedData> {}

/**
 * A document's file name wherever it is downloaded or attached: `<title>.pdf`, and
 * `<title> (signed).pdf` for the sealed version; a name any file system takes.
 */
export function downloadName(title: string, version: 'original' | 'signed' = 'original'): string {
  const base = title
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f/\\]+/g, ' ')
    .replace(/\.pdf\s*$/i, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 150)
  return `${base || 'document'}${version === 'signed' ? ' (signed)' : ''}.pdf`
}
