/**
 * The signing page's data: the session from /api/signing, the recipient's field values, the
 * rules a value must meet, and the request and messages that complete it. No React here.
 */
import {
  downloadName,
  SIGNATURE_FIELD_TYPES,
  type SignedData,
  type SigningCompleteRequest,
  type SigningField,
  type SigningFieldValue,
  type SigningSession,
  type SignOptions,
} from '../../../../src/protocol/index.js'
import { baseRequired, type FieldState } from '../../../shared/field-logic/index.js'
import { ApiError, createApi, type Api } from '../page/api.js'
import type { SignLaunch } from '../page/boot.js'
import type { MessageKey } from '../i18n/index.js'
import { keepingProofs } from './proof-store.js'

export type { SigningField, SigningSession }

/** The signing API, same origin, with the recipient's (or direct link's) token as a bearer credential, and the proofs this device holds for it. */
export const signingApi = (token: string, direct = false): Api => keepingProofs(createApi(token, direct ? '/api/signing/direct' : '/api/signing'), token)

export async function loadSigningSession(api: Api): Promise<SigningSession> {
  return api.get<SigningSession>('/session')
}

/** Why a session could not be shown, in the words of the screens. */
export type LoadFailure = 'INVALID_LINK' | 'NETWORK' | 'INVALID_OPTIONS' | 'INTERNAL'

export function loadFailure(e: unknown): LoadFailure {
  if (!(e instanceof ApiError)) return 'INTERNAL'
  if (e.status === 0) return 'NETWORK'
  if (e.status === 401 || e.status === 404 || e.code === 'INVALID_TOKEN' || e.code === 'NOT_FOUND') return 'INVALID_LINK'
  return 'INTERNAL'
}

/** The embed-error code (docs/protocol.md) for a failure. */
export function embedCode(f: LoadFailure): 'INVALID_TOKEN' | 'INVALID_OPTIONS' | 'INTERNAL' {
  return f === 'INVALID_LINK' ? 'INVALID_TOKEN' : f === 'INVALID_OPTIONS' ? 'INVALID_OPTIONS' : 'INTERNAL'
}

// ---- fields --------------------------------------------------------------------------------

export const isSignatureType = (f: SigningField) => SIGNATURE_FIELD_TYPES.includes(f.type)
/** Which adopted image a signature-type field reuses. */
export const imageKind = (f: SigningField): 'signature' | 'initials' => (f.type === 'INITIALS' ? 'initials' : 'signature')

export interface FieldRules {
  label: string | null
  required: boolean
  readOnly: boolean
  options: string[]
  min: number | null
  max: number | null
  maxLength: number
  placeholder: string | null
  /** The sender's preset value (TEXT `text`, NUMBER `value`). */
  preset: string | null
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null)
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null)

/**
 * What fieldMeta says about a field, read leniently: the editor's `{label, required, options}`
 * as well as the deployed service's `values: [{value}]`, `minValue`/`maxValue`, `characterLimit`.
 */
export function rulesOf(f: SigningField): FieldRules {
  const m = f.fieldMeta ?? {}
  let options: string[] = []
  if (Array.isArray(m.options)) options = m.options.map(String)
  else if (Array.isArray(m.values)) options = (m.values as unknown[]).map((v) => (v && typeof v === 'object' ? String((v as { value?: unknown }).value ?? '') : String(v)))
  options = options.filter((o) => o.trim() !== '')
  return {
    label: text(m.label),
    // As the service decides it (host/shared/field-logic); DATE is stamped by the service, never filled here.
    required: f.type === 'DATE' ? false : baseRequired(f.type, m),
    readOnly: m.readOnly === true,
    options,
    min: num(m.min ?? m.minValue),
    max: num(m.max ?? m.maxValue),
    maxLength: Math.min(num(m.characterLimit ?? m.maxLength) ?? MAX_TEXT, MAX_TEXT),
    placeholder: text(m.placeholder),
    preset: text(m.text) ?? (num(m.value) !== null ? String(m.value) : text(m.value)),
  }
}

/** What conditions and formulas decided for each field (host/shared/field-logic); null for an envelope without any. */
export type Decided = ReadonlyMap<number, FieldState> | null

/** Whether the field must be filled now: as its conditions decide, else as its fieldMeta says (DATE never: the service stamps it). */
export function requiredOf(f: SigningField, decided: Decided = null): boolean {
  if (f.type === 'DATE') return false
  return decided?.get(f.id)?.required ?? rulesOf(f).required
}

/** A field the conditions hide: not shown, not counted, its value not sent. */
export const isHidden = (f: SigningField, decided: Decided): boolean => decided?.get(f.id)?.visible === false

/** A formula's result (or why there is none) for a formula field; undefined for any other. */
export const computedOf = (f: SigningField, decided: Decided): FieldState['computed'] => decided?.get(f.id)?.computed

/** The service stores at most this many characters of a text value. */
const MAX_TEXT = 1000

/** Reading order: item, page, top to bottom, left to right. */
export function orderFields(fields: SigningField[], items: SigningSession['envelope']['items']): SigningField[] {
  const order = new Map(items.map((i) => [i.id, i.order]))
  return [...fields].sort(
    (a, b) =>
      (order.get(a.envelopeItemId) ?? 0) - (order.get(b.envelopeItemId) ?? 0) ||
      a.page - b.page ||
      // Fields on the same line (within half a percent) read left to right.
      (Math.abs(a.positionY - b.positionY) > 0.5 ? a.positionY - b.positionY : 0) ||
      a.positionX - b.positionX ||
      a.id - b.id,
  )
}

// ---- values --------------------------------------------------------------------------------

export type Values = Record<number, SigningFieldValue | undefined>

/** Who signs: the embed's name and e-mail win over the recipient's (a customer knows its user). */
export function signerIdentity(session: SigningSession, options: SignOptions) {
  return {
    name: options.name?.trim() || session.recipient.name,
    email: options.email?.trim() || session.recipient.email,
    lockName: options.lockName === true && !!options.name?.trim(),
    lockEmail: options.lockEmail === true && !!options.email?.trim(),
  }
}

/** Who signs, as far as the page knows: the recipient's (or the embed's) name and e-mail, else what they typed in NAME and EMAIL fields. */
export function knownSigner(session: SigningSession, values: Values, options: SignOptions) {
  const who = signerIdentity(session, options)
  const typed = (type: string) => {
    const f = session.fields.find((x) => x.type === type && typeof values[x.id] === 'string')
    return f ? String(values[f.id]).trim() : ''
  }
  return { name: who.name || typed('NAME'), email: who.email || typed('EMAIL'), lockName: who.lockName, lockEmail: who.lockEmail }
}

export function initialValues(session: SigningSession, options: SignOptions): Values {
  const who = signerIdentity(session, options)
  const values: Values = {}
  for (const f of session.fields) {
    if (f.inserted && f.customText != null) {
      values[f.id] = f.type === 'CHECKBOX' ? parseList(f.customText) : f.customText
      continue
    }
    const rules = rulesOf(f)
    if (f.type === 'NAME' && who.name) values[f.id] = who.name
    else if (f.type === 'EMAIL' && who.email) values[f.id] = who.email
    else if (f.type === 'CHECKBOX') values[f.id] = checkedByDefault(f)
    else if (rules.preset !== null && (f.type === 'TEXT' || f.type === 'NUMBER' || ((f.type === 'RADIO' || f.type === 'DROPDOWN') && rules.options.includes(rules.preset))))
      values[f.id] = rules.preset
  }
  return values
}

function parseList(raw: string): string[] {
  try {
    const v: unknown = JSON.parse(raw)
    if (Array.isArray(v)) return v.map(String)
  } catch {
    /* a plain string */
  }
  return raw ? raw.split(',').map((s) => s.trim()).filter(Boolean) : []
}

function checkedByDefault(f: SigningField): string[] {
  const values = f.fieldMeta?.values
  if (!Array.isArray(values)) return []
  return values.flatMap((v) => (v && typeof v === 'object' && (v as { checked?: unknown }).checked === true ? [String((v as { value?: unknown }).value ?? '')] : []))
}

/** NAME and EMAIL fields the embed locked. */
export function isLocked(f: SigningField, session: SigningSession, options: SignOptions): boolean {
  const who = signerIdentity(session, options)
  return (f.type === 'NAME' && who.lockName) || (f.type === 'EMAIL' && who.lockEmail) || (rulesOf(f).readOnly && rulesOf(f).preset !== null) || f.inserted
}

export function isFilled(f: SigningField, value: SigningFieldValue | undefined): boolean {
  if (f.type === 'DATE') return true
  if (value === undefined) return false
  return Array.isArray(value) ? value.length > 0 : value.trim() !== ''
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** The problem with a value, as a message key and its variables; null when it may be sent. */
export function problemOf(f: SigningField, value: SigningFieldValue | undefined, required = rulesOf(f).required): { key: MessageKey; vars?: Record<string, string | number> } | null {
  const rules = rulesOf(f)
  if (!isFilled(f, value)) return required && f.type !== 'DATE' ? { key: 'sign.invalid.required' } : null
  if (f.type === 'DATE' || value === undefined) return null
  if (f.type === 'CHECKBOX') {
    const list = value as string[]
    return list.every((v) => rules.options.includes(v)) ? null : { key: 'sign.invalid.option' }
  }
  if (isSignatureType(f)) return String(value).startsWith('data:image/png;base64,') ? null : { key: 'sign.invalid.required' }
  const s = String(value).trim()
  switch (f.type) {
    case 'EMAIL':
      return EMAIL.test(s) ? null : { key: 'sign.invalid.email' }
    case 'NUMBER': {
      const n = parseNumber(s)
      if (n === null) return { key: 'sign.invalid.number' }
      if (rules.min !== null && n < rules.min) return { key: 'sign.invalid.min', vars: { min: rules.min } }
      if (rules.max !== null && n > rules.max) return { key: 'sign.invalid.max', vars: { max: rules.max } }
      return null
    }
    case 'RADIO':
    case 'DROPDOWN':
      return rules.options.includes(String(value)) ? null : { key: 'sign.invalid.option' }
    default:
      return s.length > rules.maxLength ? { key: 'sign.invalid.tooLong', vars: { max: rules.maxLength } } : null
  }
}

/** A plain decimal number; a decimal comma is accepted as people type it in de and fr (the service reads both). */
export function parseNumber(s: string): number | null {
  const t = s.trim()
  if (!/^[-+]?(\d+([.,]\d*)?|[.,]\d+)$/.test(t)) return null
  const n = Number(t.replace(',', '.'))
  return Number.isFinite(n) ? n : null
}

export interface Progress {
  /** Required fields, in reading order. */
  required: SigningField[]
  done: number
  /** Required fields still empty or invalid, in reading order. */
  missing: SigningField[]
  /** Any field whose value cannot be sent (required or not). */
  invalid: SigningField[]
}

/** `ordered`: the fields shown (none the conditions hide); `decided` says which are required now. */
export function progressOf(ordered: SigningField[], values: Values, decided: Decided = null): Progress {
  const required = ordered.filter((f) => requiredOf(f, decided))
  const invalid = ordered.filter((f) => problemOf(f, values[f.id], requiredOf(f, decided)) !== null)
  const missing = required.filter((f) => invalid.includes(f))
  return { required, done: required.length - missing.length, missing, invalid }
}

/** The field the guide goes to after `current`: the next one that needs attention, wrapping. */
export function nextField(ordered: SigningField[], progress: Progress, currentId: number | null): SigningField | null {
  const todo = progress.invalid
  if (!todo.length) return null
  const at = currentId === null ? -1 : ordered.findIndex((f) => f.id === currentId)
  return todo.find((f) => ordered.indexOf(f) > at) ?? todo[0]!
}

export function completeRequest(session: SigningSession, values: Values, nextSigner?: { name: string; email: string }): SigningCompleteRequest {
  const fields = session.fields.flatMap((f) => {
    const value = values[f.id]
    if (f.type === 'DATE' || f.inserted || value === undefined || !isFilled(f, value)) return []
    // Free text goes trimmed; options and images exactly as they are.
    const free = typeof value === 'string' && !isSignatureType(f) && f.type !== 'RADIO' && f.type !== 'DROPDOWN'
    return [{ id: f.id, value: free ? value.trim() : value }]
  })
  return { fields, ...(session.nextSigner && nextSigner ? { nextSigner: { name: nextSigner.name.trim(), email: nextSigner.email.trim() } } : {}) }
}

export const validEmail = (s: string) => EMAIL.test(s.trim())

// ---- roles and messages ----------------------------------------------------------------------

export type Role = SigningSession['recipient']['role']

/** Whether this recipient has an action (CC only reads). */
export const hasAction = (role: Role) => role !== 'CC'

export function canReject(session: SigningSession, options: SignOptions): boolean {
  // A direct link's visitor can just leave: there is no document yet to reject.
  return !session.direct && options.allowDocumentRejection !== false && session.recipient.role !== 'CC' && session.recipient.role !== 'VIEWER'
}

export function signedData(launch: SignLaunch, session: SigningSession): SignedData {
  return { token: launch.token, documentId: session.envelope.documentId, recipientId: session.recipient.id, envelopeId: session.envelope.id }
}

/** Only web addresses: a redirect must never run script or leave for another scheme. */
export function safeRedirect(url: string | null | undefined): string | null {
  if (!url) return null
  try {
    const u = new URL(url, location.href)
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null
  } catch {
    return null
  }
}

/** Saves an item's PDF (the original or, once sealed, the signed one) under its title. */
export async function downloadItem(api: Api, item: { id: string; title: string }, version: 'original' | 'signed'): Promise<void> {
  const bytes = await api.download(`/item/${encodeURIComponent(item.id)}${version === 'signed' ? '?version=signed' : ''}`)
  const url = URL.createObjectURL(new Blob([bytes], { type: 'application/pdf' }))
  const a = document.createElement('a')
  a.href = url
  a.download = downloadName(item.title, version)
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}
