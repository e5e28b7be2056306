/**
 * The console's words (dictionaries.ts) in the reader's language: the browser's unless the person
 * picked one (kept in localStorage).
 */
import { LANGUAGE_CODES, directionOf, languageOf, type Language } from '../../../../shared/languages.js'
import { CONSOLE_DICTIONARIES, type ConsoleKey } from './dictionaries.js'

export type { ConsoleKey }
export const CONSOLE_LANGUAGES = LANGUAGE_CODES
export type ConsoleLanguage = Language

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
  document.documentElement.dir = directionOf(l)
  try {
    localStorage.setItem(STORE_KEY, l)
  } catch {}
}

/**
 * The text of `key` in the console's language, `{name}` placeholders filled from `vars`. A key
 * made from what the server sent (an activity's action) may be unknown: it shows as itself.
 */
export function ct(key: ConsoleKey, vars: Record<string, string | number> = {}): string {
  const text = CONSOLE_DICTIONARIES[language][key] ?? CONSOLE_DICTIONARIES.en[key] ?? key
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m))
}

/** Dates and times as the console shows them: the reader's language and time zone. */
export const formatDateTime = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleString(language, { dateStyle: 'medium', timeStyle: 'short' }) : '—'
export const formatDate = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleDateString(language, { dateStyle: 'medium' }) : '—')
