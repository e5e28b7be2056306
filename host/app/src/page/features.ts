/**
 * What the embedding page lets the user configure, in the one shape the editor's steps read.
 *
 * Two forms arrive in the hash's `features`, alone or together:
 * - the six flat toggles (`allowConfigureLanguage`, …), sent by every component;
 * - the nested groups the deployed service's envelope components send (`general`, `settings`,
 *   `actions`, `envelopeItems`, `recipients`; a nullable group set to `null` is wholly off).
 * A missing key means allowed; when both forms speak of one setting, `false` in either wins.
 * Keys without a counterpart in this editor (preview step, sidebar, expiration, e-mail sender
 * and reply-to, replacing a file) are ignored, as are keys nobody knows.
 */
import type { EmbedFeatures, EnvelopeEditorFeatures } from '../../../../src/protocol/index.js'
import { FEATURE_KEYS } from '../../../../src/protocol/index.js'
import { RECIPIENT_ROLES, type RecipientRole } from './types.js'

/** The nested vocabulary: each group's known keys, and whether the group may be `null`. */
const GROUPS: Record<keyof EnvelopeEditorFeatures, { nullable: boolean; keys: readonly string[] }> = {
  general: {
    nullable: false,
    keys: ['allowConfigureEnvelopeTitle', 'allowUploadAndRecipientStep', 'allowAddFieldsStep', 'allowPreviewStep', 'minimizeLeftSidebar'],
  },
  settings: {
    nullable: true,
    keys: [
      'allowConfigureSignatureTypes', 'allowConfigureLanguage', 'allowConfigureDateFormat', 'allowConfigureTimezone',
      'allowConfigureRedirectUrl', 'allowConfigureDistribution', 'allowConfigureExpirationPeriod',
      'allowConfigureEmailSender', 'allowConfigureEmailReplyTo',
    ],
  },
  actions: { nullable: false, keys: ['allowAttachments'] },
  envelopeItems: { nullable: true, keys: ['allowConfigureTitle', 'allowConfigureOrder', 'allowUpload', 'allowDelete', 'allowReplace'] },
  recipients: {
    nullable: true,
    keys: ['allowConfigureSigningOrder', 'allowConfigureDictateNextSigner', 'allowApproverRole', 'allowViewerRole', 'allowCCerRole', 'allowAssistantRole', 'allowConfigureAuthOptions'],
  },
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * Checks the hash's `features` and keeps what is known: flat toggles and nested groups.
 * A known key of the wrong type calls `bad` with its path; `null` values count as missing,
 * except a nullable group's `null`, which is kept (it turns the group off).
 */
export function parseFeatures(raw: unknown, bad: (key: string) => never): EmbedFeatures {
  if (!isObject(raw)) return bad('features')
  const out: Record<string, unknown> = {}
  const copyBooleans = (from: Record<string, unknown>, keys: readonly string[], to: Record<string, unknown>, path: string) => {
    for (const key of keys) {
      if (from[key] === undefined || from[key] === null) continue
      if (typeof from[key] !== 'boolean') bad(`${path}${key}`)
      to[key] = from[key]
    }
  }
  copyBooleans(raw, FEATURE_KEYS, out, 'features.')
  for (const [group, { nullable, keys }] of Object.entries(GROUPS)) {
    const value = raw[group]
    if (value === undefined) continue
    if (value === null) {
      if (nullable) out[group] = null
      continue
    }
    if (!isObject(value)) bad(`features.${group}`)
    const copy: Record<string, unknown> = {}
    copyBooleans(value as Record<string, unknown>, keys, copy, `features.${group}.`)
    out[group] = copy
  }
  return out as EmbedFeatures
}

export type SettingId = 'signatureTypes' | 'language' | 'dateFormat' | 'timezone' | 'redirectUrl' | 'communication'

/** The editor's own view: what each step may show and change. */
export interface EditorFeatures {
  /** The envelope's title can be changed (otherwise it is shown, read-only). */
  title: boolean
  /** Which steps exist (the editor adds its own rules, e.g. onlyEditFields). */
  steps: { files: boolean; recipients: boolean; fields: boolean }
  /** The settings step's configurable settings. */
  settings: Record<SettingId, boolean>
  /** The settings step's links (attachments) section. */
  attachments: boolean
  /** What the files step may do with the envelope's files. */
  items: { upload: boolean; remove: boolean; reorder: boolean; rename: boolean }
  /** `auth`: each recipient's verification can be chosen (opt-in: it changes what signers must do). */
  recipients: { roles: RecipientRole[]; signingOrder: boolean; dictateNextSigner: boolean; auth: boolean }
}

/**
 * Resolves both forms into EditorFeatures. On create routes the files step always exists and at
 * least one file can always be uploaded: a new envelope cannot be made without one.
 */
export function editorFeatures(f: EmbedFeatures | undefined, o: { create: boolean }): EditorFeatures {
  const on = (v: boolean | undefined) => v !== false
  const general = f?.general ?? {}
  const settings = f?.settings
  const items = f?.envelopeItems
  const recipients = f?.recipients
  // A flat toggle and its nested twin: off when either says so, or when the group is null.
  const setting = (flat: (typeof FEATURE_KEYS)[number], nested: keyof NonNullable<EnvelopeEditorFeatures['settings']>) =>
    on(f?.[flat]) && settings !== null && on(settings?.[nested])
  const uploadAndRecipients = on(general.allowUploadAndRecipientStep)
  const roleAllowed: Record<RecipientRole, boolean> = {
    SIGNER: true,
    APPROVER: on(recipients?.allowApproverRole),
    VIEWER: on(recipients?.allowViewerRole),
    ASSISTANT: on(recipients?.allowAssistantRole),
    CC: on(recipients?.allowCCerRole),
  }
  return {
    title: on(general.allowConfigureEnvelopeTitle),
    steps: {
      files: o.create || uploadAndRecipients,
      recipients: (o.create || uploadAndRecipients) && recipients !== null,
      fields: on(general.allowAddFieldsStep),
    },
    settings: {
      signatureTypes: setting('allowConfigureSignatureTypes', 'allowConfigureSignatureTypes'),
      language: setting('allowConfigureLanguage', 'allowConfigureLanguage'),
      dateFormat: setting('allowConfigureDateFormat', 'allowConfigureDateFormat'),
      timezone: setting('allowConfigureTimezone', 'allowConfigureTimezone'),
      redirectUrl: setting('allowConfigureRedirectUrl', 'allowConfigureRedirectUrl'),
      communication: setting('allowConfigureCommunication', 'allowConfigureDistribution'),
    },
    attachments: on(f?.actions?.allowAttachments),
    items: {
      upload: items !== null && on(items?.allowUpload),
      remove: items !== null && on(items?.allowDelete),
      reorder: items !== null && on(items?.allowConfigureOrder),
      rename: items !== null && on(items?.allowConfigureTitle),
    },
    recipients: {
      roles: RECIPIENT_ROLES.filter((r) => roleAllowed[r]),
      signingOrder: on(recipients?.allowConfigureSigningOrder),
      dictateNextSigner: on(recipients?.allowConfigureDictateNextSigner),
      auth: recipients?.allowConfigureAuthOptions === true,
    },
  }
}
