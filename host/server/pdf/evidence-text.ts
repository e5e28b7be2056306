/**
 * The words of the evidence documents (certificate and audit log) in every language the service
 * speaks, one file per language (host/shared/words/<language>/evidence.ts), on the words core
 * (host/shared/i18n.ts); any other language reads in English.
 * Dates are formatted with the document's own settings.
 */
import { format, type Params } from '../../shared/i18n.js'
import { languageOf, type Language } from '../../shared/languages.js'
import en, { type EvidenceKey, type EvidenceWords } from '../../shared/words/en/evidence.js'
import { formatSigningDate } from '../domain/signing/date.js'
import { WORDS } from './evidence-words.js'

export type { EvidenceKey, EvidenceWords }

/** Every language's dictionary, flat (host/shared/i18n.ts): what the parity test compares. */
export const EVIDENCE_WORDS: Record<Language, EvidenceWords> = WORDS

type Phrase = 'consented' | 'page' | 'verificationFailed' | 'locked' | 'laterCorrected'
type Plain = Exclude<EvidenceKey, `${string}.${string}` | Phrase>

/**
 * The words in one language, as the certificate and the audit log use them: each plain key as a
 * text, the methods, roles, events and codes' purposes looked up by what the audit log holds (an
 * unknown one is absent: the caller shows it as itself), the phrases with values as functions, and
 * `say` for any key with its placeholders.
 */
export type EvidenceText = Record<Plain, string> & {
  methods: Record<string, string>
  roles: Record<string, string>
  events: Record<string, string>
  codeSent: Record<string, string>
  consented: (at: string, version: number, hash: string) => string
  page: (n: number, of: number) => string
  verificationFailed: (method: string) => string
  locked: (until: string) => string
  laterCorrected: (to: string, corrected: string) => string
  say: (key: EvidenceKey, params?: Params) => string
}

const texts = new Map<Language, EvidenceText>()

function textOf(lang: Language): EvidenceText {
  const say = (key: EvidenceKey, params?: Params) => format(EVIDENCE_WORDS[lang], key, params, lang, en)
  const group = (prefix: string) => Object.fromEntries(Object.keys(en).filter((k) => k.startsWith(`${prefix}.`)).map((k) => [k.slice(prefix.length + 1), say(k as EvidenceKey)]))
  const plain = Object.fromEntries(Object.keys(en).filter((k) => !k.includes('.')).map((k) => [k, say(k as EvidenceKey)])) as Record<Plain, string>
  return {
    ...plain,
    methods: group('methods'),
    roles: group('roles'),
    events: group('events'),
    codeSent: group('codeSent'),
    consented: (at, version, hash) => say('consented', { at, version, hash }),
    page: (n, of) => say('page', { n, of }),
    verificationFailed: (method) => say('verificationFailed', { method }),
    locked: (until) => say('locked', { until }),
    laterCorrected: (to, corrected) => say('laterCorrected', { to, corrected }),
    say,
  }
}

/** How the evidence documents speak and tell time: the document's settings. */
export interface EvidenceLocale {
  dateFormat: string
  timezone: string
  language: string
}

export const DEFAULT_LOCALE: EvidenceLocale = { dateFormat: 'yyyy-MM-dd hh:mm a', timezone: 'Etc/UTC', language: 'en' }

/** The evidence documents' words in a language (a tag such as `de-CH`; English for one not spoken). */
export function evidenceText(language: string): EvidenceText {
  const lang = languageOf(language)
  let t = texts.get(lang)
  if (!t) texts.set(lang, (t = textOf(lang)))
  return t
}

/** A time as the document shows times, with its zone named (seconds kept: evidence needs them). */
export function evidenceTime(iso: string | null | undefined, locale: EvidenceLocale): string {
  if (!iso) return '—'
  const at = new Date(iso)
  if (Number.isNaN(at.getTime())) return iso
  const pattern = /s/.test(locale.dateFormat) ? locale.dateFormat : withSeconds(locale.dateFormat)
  return `${formatSigningDate(at, pattern, locale.timezone, locale.language)} (${locale.timezone})`
}

/** The pattern with seconds after its minutes ("HH:mm" -> "HH:mm:ss"); unchanged when it shows no minutes. */
function withSeconds(pattern: string): string {
  return pattern.replace(/mm(?!m)/, 'mm:ss')
}
