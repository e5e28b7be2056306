/**
 * The console's words in the reader's language: the browser's unless the person picked one (kept
 * in localStorage). Each area (shell, account, team, documents, ...) keeps one file per language
 * (<area>/<lang>.ts); English (en.ts) defines the keys and is built in, every other language is
 * typed against it and its areas loaded when chosen, so the console's chunk carries no language it
 * does not show. The languages are LANGUAGES' alone: a new one is a file in each area's folder.
 */
import { format, type Params } from '../../../../shared/i18n.js'
import { LANGUAGE_CODES, directionOf, languageOf, type Language } from '../../../../shared/languages.js'
import en, { type ConsoleKey, type ConsoleWords } from './en.js'

export type { ConsoleKey }
export const CONSOLE_LANGUAGES = LANGUAGE_CODES
export type ConsoleLanguage = Language

/** Every area's file of every language but English, by path (`./team/de.ts`). */
const AREA_FILES = import.meta.glob<{ default: Partial<ConsoleWords> }>(['./*/*.ts', '!./*/en.ts'])
const AREAS = [...new Set(Object.keys(AREA_FILES).map((file) => file.split('/')[1]!))]

/** A language's loader: all its areas' files, merged; a missing one rejects, naming it (the console then reads in English). */
const loaderOf = (code: Language) => async (): Promise<ConsoleWords> => {
  const areas = await Promise.all(AREAS.map((area) => AREA_FILES[`./${area}/${code}.ts`]?.() ?? Promise.reject(new Error(`no console words ${area}/${code}.ts`))))
  return Object.assign({}, ...areas.map((m) => m.default)) as ConsoleWords
}
const LOADERS = Object.fromEntries(LANGUAGE_CODES.map((code) => [code, loaderOf(code)])) as Record<Language, () => Promise<ConsoleWords>>
const loaded: Partial<Record<Language, ConsoleWords>> = { en }

/** Brings the language's words (once); choose it after. Never rejects: it reads in English if they cannot load. */
export async function loadConsoleLanguage(l: ConsoleLanguage): Promise<void> {
  if (l === 'en' || loaded[l]) return
  try {
    loaded[l] = await LOADERS[l]()
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
export function ct(key: ConsoleKey, vars: Params = {}): string {
  return format(loaded[language], key, vars, language, en)
}

/** Dates and times as the console shows them: the reader's language and time zone. */
export const formatDateTime = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleString(language, { dateStyle: 'medium', timeStyle: 'short' }) : '—'
export const formatDate = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleDateString(language, { dateStyle: 'medium' }) : '—')
