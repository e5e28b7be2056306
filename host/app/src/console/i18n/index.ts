/**
 * The console's words in en, de and fr. Each area of the console keeps its own dictionary file
 * (shell, account, team, documents); English is every missing key's fallback. The language is the
 * browser's unless the person picked one (kept in localStorage).
 */
import { LANGUAGE_CODES, languageOf, type Language } from '../../../../shared/languages.js'
import account from './account.js'
import documents from './documents.js'
import shell from './shell.js'
import team from './team.js'

export const CONSOLE_LANGUAGES = LANGUAGE_CODES
export type ConsoleLanguage = Language
export type Dictionary = Record<string, string>
export type AreaMessages = { en: Dictionary; de: Dictionary; fr: Dictionary }

const AREAS: AreaMessages[] = [shell, account, team, documents]
const merged = Object.fromEntries(CONSOLE_LANGUAGES.map((l) => [l, Object.assign({}, ...AREAS.map((a) => a[l]))])) as Record<ConsoleLanguage, Dictionary>

const STORE_KEY = 'console.language'

function initial(): ConsoleLanguage {
  let stored: string | null = null
  try {
    stored = localStorage.getItem(STORE_KEY)
  } catch {}
  return languageOf(stored ?? navigator.language)
}

let language: ConsoleLanguage = initial()

export const consoleLanguage = () => language

export function setConsoleLanguage(l: ConsoleLanguage): void {
  language = l
  document.documentElement.lang = l
  try {
    localStorage.setItem(STORE_KEY, l)
  } catch {}
}

/** The text of `key` in the console's language, `{name}` placeholders filled from `vars`. */
export function ct(key: string, vars: Record<string, string | number> = {}): string {
  const text = merged[language][key] ?? merged.en[key] ?? key
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m))
}

/** Dates and times as the console shows them: the reader's language and time zone. */
export const formatDateTime = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleString(language, { dateStyle: 'medium', timeStyle: 'short' }) : '—'
export const formatDate = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleDateString(language, { dateStyle: 'medium' }) : '—')
