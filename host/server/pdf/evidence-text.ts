/**
 * The words of the evidence documents (certificate and audit log) in every language the service
 * speaks, one file per language (evidence-words/<language>.ts); any other language reads in English.
 * Dates are formatted with the document's own settings.
 */
import { languageOf, type Language } from '../../shared/languages.js'
import { formatSigningDate } from '../domain/signing/date.js'
import de from './evidence-words/de.js'
import en, { type EvidenceWords } from './evidence-words/en.js'
import es from './evidence-words/es.js'
import fr from './evidence-words/fr.js'
import it from './evidence-words/it.js'
import nl from './evidence-words/nl.js'
import pl from './evidence-words/pl.js'
import ptBR from './evidence-words/pt-BR.js'
import he from './evidence-words/he.js'
import ja from './evidence-words/ja.js'
import ko from './evidence-words/ko.js'
import zh from './evidence-words/zh.js'

/** The words, with the methods, roles, events and codes' purposes looked up by what the audit log holds: an unknown one shows as itself. */
export type EvidenceText = Omit<EvidenceWords, 'methods' | 'roles' | 'events' | 'codeSent'> & {
  methods: Record<string, string>
  roles: Record<string, string>
  events: Record<string, string>
  codeSent: Record<string, string>
}

const TEXTS: Record<Language, EvidenceText> = { en, de, fr, es, it, nl, 'pt-BR': ptBR, pl, he, ja, ko, zh }

/** How the evidence documents speak and tell time: the document's settings. */
export interface EvidenceLocale {
  dateFormat: string
  timezone: string
  language: string
}

export const DEFAULT_LOCALE: EvidenceLocale = { dateFormat: 'yyyy-MM-dd hh:mm a', timezone: 'Etc/UTC', language: 'en' }

export function evidenceText(language: string): EvidenceText {
  return TEXTS[languageOf(language)]
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
