import en, { type MessageKey, type Messages } from './en.js'
import de from './de.js'
import fr from './fr.js'

export type { MessageKey }

const DICTIONARIES: Record<string, Messages> = { en, de, fr }
export const UI_LANGUAGES = Object.keys(DICTIONARIES)

let messages: Messages = en
let lang = 'en'

/** Chooses the UI language from a code such as `de`, `de-CH` or `fr_FR`; unknown codes give English. */
export function setLanguage(code: string | undefined): string {
  const base = (code ?? 'en').toLowerCase().split(/[-_]/)[0]!
  lang = Object.hasOwn(DICTIONARIES, base) ? base : 'en'
  messages = DICTIONARIES[lang]!
  document.documentElement.lang = lang
  return lang
}

export const language = () => lang

export function t(key: MessageKey, vars?: Record<string, string | number>): string {
  const text = messages[key] ?? en[key]
  return vars ? text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m)) : text
}

/** For keys with `.one` / `.other` forms. */
export function tn(key: string, count: number, vars?: Record<string, string | number>): string {
  const form = new Intl.PluralRules(lang).select(count) === 'one' ? 'one' : 'other'
  return t(`${key}.${form}` as MessageKey, { count, ...vars })
}
