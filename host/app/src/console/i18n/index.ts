/**
 * The console's words in the reader's language: the browser's unless the person picked one (kept
 * in localStorage). Each area (shell, account, team, documents) keeps one file per language;
 * English (en.ts) defines the keys and is built in, every other language is typed against it and
 * loaded when chosen, so the console's chunk carries no language it does not show.
 */
import { LANGUAGE_CODES, directionOf, languageOf, type Language } from '../../../../shared/languages.js'
import en, { type ConsoleKey, type ConsoleWords } from './en.js'

export type { ConsoleKey }
export const CONSOLE_LANGUAGES = LANGUAGE_CODES
export type ConsoleLanguage = Language

const LOADERS: Record<Exclude<Language, 'en'>, () => Promise<{ default: ConsoleWords }>> = {
  de: () => import('./de.js'),
  fr: () => import('./fr.js'),
  es: () => import('./es.js'),
  it: () => import('./it.js'),
  nl: () => import('./nl.js'),
  pl: () => import('./pl.js'),
  'pt-BR': () => import('./pt-BR.js'),
  he: () => import('./he.js'),
  ja: () => import('./ja.js'),
  ko: () => import('./ko.js'),
  zh: () => import('./zh.js'),
}
const loaded: Partial<Record<Language, ConsoleWords>> = { en }

/** Brings the language's words (once); choose it after. Never rejects: it reads in English if they cannot load. */
export async function loadConsoleLanguage(l: ConsoleLanguage): Promise<void> {
  if (l === 'en' || loaded[l]) return
  try {
    loaded[l] = (await LOADERS[l]()).default
  } catch {
    /* stays English */
  }
}

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
  const text = loaded[language]?.[key] ?? en[key] ?? key
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m))
}

/** Dates and times as the console shows them: the reader's language and time zone. */
export const formatDateTime = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleString(language, { dateStyle: 'medium', timeStyle: 'short' }) : '—'
export const formatDate = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleDateString(language, { dateStyle: 'medium' }) : '—')
