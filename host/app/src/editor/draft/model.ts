/**
 * The editor's working copy of an envelope. Pure data and pure functions: the UI keeps one
 * Draft in state, the save code compares it with the Draft it started from.
 */
import type { EnvelopeType } from '../../../../../src/protocol/index.js'
import { browserDateFormat, browserTimeZone } from './browser-defaults.js'
import { followRename, logicIssues, logicMeta, type Condition } from './logic.js'
import { DEFAULT_DOCUMENT_META, type Attachment, type DocumentMeta, type Envelope, type FieldMeta, type FieldType, type FormFieldOffer, type RecipientRole } from '../../page/types.js'

export interface DraftItem {
  key: string
  /** Server id once stored. */
  id: string | null
  title: string
  /** The uploaded file (new items only); stored items are downloaded to be shown. */
  file: File | null
  /** The file's own form fields, found on upload and offered until the author uses or ignores them (form-fields.ts). */
  formFields?: FormFieldOffer[] | undefined
  /** Server order, kept to know whether it changed. */
  order: number | null
}

export interface DraftRecipient {
  key: string
  id: number | null
  name: string
  email: string
  role: RecipientRole
  signingOrder: number | null
  /** How the recipient is verified (the API's authOptions); [] for none. */
  accessAuth: string[]
  actionAuth: string[]
}

export interface DraftField {
  key: string
  id: number | null
  itemKey: string
  recipientKey: string
  type: FieldType | 'FREE_SIGNATURE'
  /** 1-based page. */
  page: number
  /** Percent of the page, 0..100. */
  x: number
  y: number
  w: number
  h: number
  label: string
  required: boolean
  options: string[]
  /** When the field is shown, hidden, required or optional (fieldMeta.condition); none when absent. */
  condition?: Condition | undefined
  /** A NUMBER field's formula (fieldMeta.formula); none when absent. */
  formula?: string | undefined
  /** fieldMeta keys this editor does not edit, carried through unchanged. */
  extraMeta: FieldMeta
}

export interface DraftAttachment {
  key: string
  id: string | null
  label: string
  url: string
}

export type DraftSettings = Omit<DocumentMeta, 'emailSettings' | 'subject' | 'message' | 'redirectUrl' | 'envelopeExpirationPeriod' | 'reminderSettings'> & {
  title: string
  subject: string
  message: string
  redirectUrl: string
}

export interface Draft {
  type: EnvelopeType
  items: DraftItem[]
  recipients: DraftRecipient[]
  fields: DraftField[]
  attachments: DraftAttachment[]
  settings: DraftSettings
  /** How every recipient is verified unless their own say otherwise (the API's envelope authOptions). */
  auth: { globalAccessAuth: string[]; globalActionAuth: string[] }
}

let seq = 0
export const newKey = (prefix: string) => `${prefix}${++seq}`

/** The settings form's view of an envelope's title and documentMeta (nulls become empty inputs). */
function settingsFrom(title: string, meta: DocumentMeta): DraftSettings {
  return {
    title,
    subject: meta.subject ?? '',
    message: meta.message ?? '',
    timezone: meta.timezone,
    dateFormat: meta.dateFormat,
    redirectUrl: meta.redirectUrl ?? '',
    signingOrder: meta.signingOrder,
    allowDictateNextSigner: meta.allowDictateNextSigner,
    typedSignatureEnabled: meta.typedSignatureEnabled,
    uploadSignatureEnabled: meta.uploadSignatureEnabled,
    drawSignatureEnabled: meta.drawSignatureEnabled,
    language: meta.language,
    distributionMethod: meta.distributionMethod,
  }
}

export const DEFAULT_SETTINGS: DraftSettings = settingsFrom('', DEFAULT_DOCUMENT_META)

/** A new envelope: its time zone and date format are the author's browser's (browser-defaults.ts). */
export function emptyDraft(type: EnvelopeType, language = 'en'): Draft {
  const settings = { ...DEFAULT_SETTINGS, language, timezone: browserTimeZone(), dateFormat: browserDateFormat() }
  return { type, items: [], recipients: [], fields: [], attachments: [], settings, auth: { globalAccessAuth: [], globalActionAuth: [] } }
}

/** The order the editor lists recipients in, and colours them by: their signing order, then as added. */
export const byEditorOrder = (a: { signingOrder: number | null; id: number }, b: { signingOrder: number | null; id: number }) =>
  (a.signingOrder ?? Infinity) - (b.signingOrder ?? Infinity) || a.id - b.id

/** The fieldMeta keys this editor edits, read from a stored field's; the rest carried through. */
export function editedMeta(meta: FieldMeta | null | undefined): Pick<DraftField, 'label' | 'required' | 'options' | 'condition' | 'formula' | 'extraMeta'> {
  const { label, required, options, condition, formula, ...extraMeta } = meta ?? {}
  return {
    label: typeof label === 'string' ? label : '',
    required: required === true,
    options: Array.isArray(options) ? options.map(String) : [],
    // As stored, even malformed: the check says what is wrong, the inspector lets it be removed.
    ...(condition != null ? { condition: condition as Condition } : {}),
    ...(formula != null ? { formula: typeof formula === 'string' ? formula : String(formula) } : {}),
    extraMeta,
  }
}

export function draftFromEnvelope(env: Envelope, attachments: Attachment[]): Draft {
  const meta = { ...DEFAULT_DOCUMENT_META, ...env.documentMeta }
  const items = [...env.envelopeItems]
    .sort((a, b) => a.order - b.order)
    .map((i): DraftItem => ({ key: newKey('i'), id: i.id, title: i.title, file: null, order: i.order }))
  const recipients = [...env.recipients]
    .sort(byEditorOrder)
    .map(
      (r): DraftRecipient => ({
        key: newKey('r'),
        id: r.id,
        name: r.name,
        email: r.email,
        role: r.role,
        signingOrder: r.signingOrder,
        accessAuth: (r.authOptions?.accessAuth ?? []).map(String),
        actionAuth: (r.authOptions?.actionAuth ?? []).map(String),
      }),
    )
  const itemKey = new Map(items.map((i) => [i.id, i.key]))
  const recipientKey = new Map(recipients.map((r) => [r.id, r.key]))
  const fields = env.fields.flatMap((f): DraftField[] => {
    const ik = itemKey.get(f.envelopeItemId) ?? items[0]?.key
    const rk = recipientKey.get(f.recipientId)
    if (!ik || !rk) return []
    return [{
      key: newKey('f'), id: f.id, itemKey: ik, recipientKey: rk, type: f.type, page: f.page,
      x: f.positionX, y: f.positionY, w: f.width, h: f.height, ...editedMeta(f.fieldMeta),
    }]
  })
  return {
    type: env.type,
    items,
    recipients,
    fields,
    attachments: attachments.map((a) => ({ key: newKey('a'), id: a.id, label: a.label, url: a.data })),
    settings: settingsFrom(env.title, meta),
    auth: { globalAccessAuth: (env.authOptions?.globalAccessAuth ?? []).map(String), globalActionAuth: (env.authOptions?.globalActionAuth ?? []).map(String) },
  }
}

// ---- geometry --------------------------------------------------------------------------

/** Default size of a new field, percent of the page (width, height). */
export const FIELD_SIZE: Record<DraftField['type'], [number, number]> = {
  SIGNATURE: [24, 7], FREE_SIGNATURE: [24, 7], INITIALS: [12, 5], NAME: [24, 4], EMAIL: [28, 4],
  DATE: [16, 4], TEXT: [24, 4], NUMBER: [12, 4], CHECKBOX: [16, 7], RADIO: [16, 7], DROPDOWN: [20, 4],
}

const round = (n: number) => Math.round(n * 100) / 100
const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n))

/** Keeps a field inside its page with a minimum size; rounds to 0.01 %. */
export function clampGeometry(g: { x: number; y: number; w: number; h: number }) {
  const w = clamp(g.w, 2, 100)
  const h = clamp(g.h, 1.5, 100)
  return { w: round(w), h: round(h), x: round(clamp(g.x, 0, 100 - w)), y: round(clamp(g.y, 0, 100 - h)) }
}

export const optionsFor = (type: DraftField['type']): string[] =>
  type === 'CHECKBOX' ? ['Option 1'] : type === 'RADIO' || type === 'DROPDOWN' ? ['Option 1', 'Option 2'] : []

/** A new field of `type` centred on (cx, cy), percent of the page. */
export function makeField(args: {
  type: FieldType
  itemKey: string
  recipientKey: string
  page: number
  cx: number
  cy: number
}): DraftField {
  const [w, h] = FIELD_SIZE[args.type]
  return {
    key: newKey('f'), id: null, itemKey: args.itemKey, recipientKey: args.recipientKey, type: args.type,
    page: args.page, ...clampGeometry({ x: args.cx - w / 2, y: args.cy - h / 2, w, h }),
    label: '', required: args.type !== 'CHECKBOX', options: optionsFor(args.type), extraMeta: {},
  }
}

export function fieldMeta(f: DraftField): FieldMeta {
  return {
    ...f.extraMeta,
    type: f.type.toLowerCase(),
    label: f.label,
    required: f.required,
    ...(f.options.length || f.extraMeta.options ? { options: f.options } : {}),
    ...logicMeta(f),
  }
}

// ---- edits -------------------------------------------------------------------------------

export function moveInList<T>(list: T[], from: number, to: number): T[] {
  if (to < 0 || to >= list.length || from === to) return list
  const next = [...list]
  const [x] = next.splice(from, 1)
  next.splice(to, 0, x!)
  return next
}

export function removeItem(d: Draft, key: string): Draft {
  return { ...d, items: d.items.filter((i) => i.key !== key), fields: d.fields.filter((f) => f.itemKey !== key) }
}

export function removeRecipient(d: Draft, key: string): Draft {
  return { ...d, recipients: d.recipients.filter((r) => r.key !== key), fields: d.fields.filter((f) => f.recipientKey !== key) }
}

/** Changes field `key`; a new label is followed by the conditions and formulas that named the old one. */
export function updateField(d: Draft, key: string, patch: Partial<DraftField>): Draft {
  const before = d.fields.find((f) => f.key === key)
  const fields = d.fields.map((f) => (f.key === key ? { ...f, ...patch } : f))
  const relabelled = before && patch.label !== undefined && patch.label.trim() !== before.label.trim()
  return { ...d, fields: relabelled ? followRename(fields, key, before.label, patch.label!) : fields }
}

// ---- validation --------------------------------------------------------------------------

export type StepId = 'files' | 'recipients' | 'fields' | 'settings'

export interface Problem {
  step: StepId
  /** i18n message key. */
  message:
    | 'problem.noFiles'
    | 'problem.email'
    | 'problem.roleName'
    | 'problem.fieldOptions'
    | 'problem.title'
    | 'problem.signatureTypes'
    | 'problem.redirectUrl'
    | 'problem.attachment'
    | 'problem.signatureField'
    | 'problem.fieldPage'
    | 'logic.problem'
  /** A condition's or formula's issue (message 'logic.problem'): the field it is on and what is wrong, as the check says it. */
  logic?: { label: string; type: DraftField['type']; page: number; text: string }
  /** The key of the offending item, recipient, field or attachment. */
  target?: string
  /**
   * A warning is shown but does not stop Create/Save: what is saved is valid, only a later step
   * (using a template) needs it fixed. Everything else would be refused by the service.
   */
  warning?: boolean
}

/** Signers who have no signature field yet: the service refuses to send a document to them. */
export function signersWithoutSignature(d: Draft): DraftRecipient[] {
  const signed = new Set(d.fields.filter((f) => f.type === 'SIGNATURE' || f.type === 'FREE_SIGNATURE').map((f) => f.recipientKey))
  return d.recipients.filter((r) => r.role === 'SIGNER' && !signed.has(r.key))
}

export const isEmail = (s: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s.trim())

/** A template's recipient with no address is a role ("Client"), filled in at each use: it needs its name. */
export const isRole = (type: Draft['type'], r: Pick<DraftRecipient, 'email'>) => type === 'TEMPLATE' && !r.email.trim()

export function recipientProblem(type: Draft['type'], r: Pick<DraftRecipient, 'email' | 'name'>): 'problem.email' | 'problem.roleName' | null {
  if (isRole(type, r)) return r.name.trim() ? null : 'problem.roleName'
  return isEmail(r.email) ? null : 'problem.email'
}

export function isUrl(s: string): boolean {
  try {
    const u = new URL(s.trim())
    return u.protocol === 'https:' || u.protocol === 'http:'
  } catch {
    return false
  }
}

/**
 * What would make the service refuse the envelope, or refuse to send it. `pageCounts` (by item
 * key, where the file has been read) lets it check that every field is on a page of its file.
 */
export function validate(d: Draft, pageCounts: Record<string, number> = {}): Problem[] {
  const out: Problem[] = []
  if (!d.items.length) out.push({ step: 'files', message: 'problem.noFiles' })
  for (const r of d.recipients) {
    const problem = recipientProblem(d.type, r)
    if (problem) out.push({ step: 'recipients', message: problem, target: r.key })
  }
  // A document is made to be sent; a template can get its signature fields before it is used.
  for (const r of signersWithoutSignature(d))
    out.push({ step: 'fields', message: 'problem.signatureField', target: r.key, ...(d.type === 'TEMPLATE' && { warning: true }) })
  for (const f of d.fields) {
    const pages = pageCounts[f.itemKey]
    if (pages && f.page > pages) out.push({ step: 'fields', message: 'problem.fieldPage', target: f.key })
  }
  for (const f of d.fields)
    if ((f.type === 'RADIO' || f.type === 'DROPDOWN' || f.type === 'CHECKBOX') && !f.options.some((o) => o.trim()))
      out.push({ step: 'fields', message: 'problem.fieldOptions', target: f.key })
  for (const issue of logicIssues(d.fields)) {
    const f = d.fields.find((x) => x.key === issue.fieldKey)!
    out.push({ step: 'fields', message: 'logic.problem', target: f.key, logic: { label: f.label.trim(), type: f.type, page: f.page, text: issue.message } })
  }
  const s = d.settings
  if (!s.title.trim()) out.push({ step: 'settings', message: 'problem.title' })
  if (!s.typedSignatureEnabled && !s.uploadSignatureEnabled && !s.drawSignatureEnabled)
    out.push({ step: 'settings', message: 'problem.signatureTypes' })
  if (s.redirectUrl.trim() && !isUrl(s.redirectUrl)) out.push({ step: 'settings', message: 'problem.redirectUrl' })
  for (const a of d.attachments)
    if (!a.label.trim() || !isUrl(a.url)) out.push({ step: 'settings', message: 'problem.attachment', target: a.key })
  return out
}
