/** Options carried in the iframe URL's hash (docs/protocol.md, "Options in the hash"). */

export const FEATURE_KEYS = [
  'allowConfigureSignatureTypes',
  'allowConfigureLanguage',
  'allowConfigureDateFormat',
  'allowConfigureTimezone',
  'allowConfigureRedirectUrl',
  'allowConfigureCommunication',
] as const

export type FeatureKey = (typeof FEATURE_KEYS)[number]

/**
 * The nested form the envelope components of the deployed service send (its
 * `EnvelopeEditorSettings`, every key optional). A missing key means allowed; a group set to
 * `null` turns the whole group off. Keys a host has no counterpart for are ignored.
 */
export interface EnvelopeEditorFeatures {
  general?: {
    allowConfigureEnvelopeTitle?: boolean
    allowUploadAndRecipientStep?: boolean
    allowAddFieldsStep?: boolean
    allowPreviewStep?: boolean
    minimizeLeftSidebar?: boolean
  }
  /** `null`: no envelope setting can be seen or changed. */
  settings?: {
    allowConfigureSignatureTypes?: boolean
    allowConfigureLanguage?: boolean
    allowConfigureDateFormat?: boolean
    allowConfigureTimezone?: boolean
    allowConfigureRedirectUrl?: boolean
    allowConfigureDistribution?: boolean
    allowConfigureExpirationPeriod?: boolean
    allowConfigureEmailSender?: boolean
    allowConfigureEmailReplyTo?: boolean
  } | null
  actions?: {
    allowAttachments?: boolean
  }
  /** `null`: the envelope's files cannot be added, removed, renamed or reordered. */
  envelopeItems?: {
    allowConfigureTitle?: boolean
    allowConfigureOrder?: boolean
    allowUpload?: boolean
    allowDelete?: boolean
    allowReplace?: boolean
  } | null
  /** `null`: recipients cannot be configured at all. */
  recipients?: {
    allowConfigureSigningOrder?: boolean
    allowConfigureDictateNextSigner?: boolean
    allowApproverRole?: boolean
    allowViewerRole?: boolean
    allowCCerRole?: boolean
    allowAssistantRole?: boolean
    /** How each recipient is verified (access and action methods). Off unless set to true. */
    allowConfigureAuthOptions?: boolean
  } | null
}

/** Feature toggles: the six flat ones, the nested groups, or both; a missing key means allowed. */
export type EmbedFeatures = Partial<Record<FeatureKey, boolean>> & EnvelopeEditorFeatures

/** The cssVars vocabulary; extra keys pass through as custom properties. */
export const CSS_VAR_KEYS = [
  'background', 'foreground', 'muted', 'mutedForeground', 'popover', 'popoverForeground',
  'card', 'cardBorder', 'cardBorderTint', 'cardForeground', 'fieldCard', 'fieldCardBorder',
  'fieldCardForeground', 'widget', 'widgetForeground', 'border', 'input', 'primary',
  'primaryForeground', 'secondary', 'secondaryForeground', 'accent', 'accentForeground',
  'destructive', 'destructiveForeground', 'ring', 'radius', 'warning', 'spacing',
] as const

export type CssVarKey = (typeof CSS_VAR_KEYS)[number]
export type EmbedCssVars = Partial<Record<CssVarKey, string>> & Record<string, string>

export type EnvelopeType = 'DOCUMENT' | 'TEMPLATE'

export interface EmbedOptions {
  externalId?: string
  /** Create-envelope route only. */
  type?: EnvelopeType
  features?: EmbedFeatures
  css?: string
  cssVars?: EmbedCssVars
  darkModeDisabled?: boolean
  language?: string
  /** Update routes only: open on the fields step with recipients locked. */
  onlyEditFields?: boolean
  /** Extension: the embedding page's origin, so the host can post to it instead of `*`. */
  parentOrigin?: string
}

/** `btoa(encodeURIComponent(JSON.stringify(options)))`, undefined keys left out by JSON. */
export function encodeOptions(options: EmbedOptions): string {
  return btoa(encodeURIComponent(JSON.stringify(options)))
}

/**
 * Inverse of encodeOptions, tolerant of what a host meets in the wild: a leading `#`,
 * an empty hash. Throws on anything that is not an encoded JSON object.
 */
export function decodeOptions(hash: string): Record<string, unknown> {
  const raw = hash.replace(/^#/, '')
  if (!raw) return {}
  const value: unknown = JSON.parse(decodeURIComponent(atob(raw)))
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new TypeError('options are not an object')
  return value as Record<string, unknown>
}

/** The CSS custom property a cssVars key sets: `primaryForeground` -> `--primary-foreground`. */
export function cssVarName(key: string): string {
  return '--' + key.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())
}
