/**
 * The console's words in the reader's language: the browser's unless the person picked one (kept
 * in localStorage). Each area (shell, account, team, documents, ...) keeps one file in each
 * language's folder (host/shared/words/<lang>/console-<area>.ts); English's define the keys and are
 * built in, every other language's are typed against them and loaded when it is chosen, so the
 * console's chunk carries no language it does not show. The languages are LANGUAGES' alone.
 */
import { format, type Params } from '../../../../shared/i18n.js'
import { LANGUAGE_CODES, directionOf, languageOf, type Language } from '../../../../shared/languages.js'
import account from '../../../../shared/words/en/console-account.js'
import branding from '../../../../shared/words/en/console-branding.js'
import bulk from '../../../../shared/words/en/console-bulk.js'
import documents from '../../../../shared/words/en/console-documents.js'
import errors from '../../../../shared/words/en/console-errors.js'
import send from '../../../../shared/words/en/console-send.js'
import shell from '../../../../shared/words/en/console-shell.js'
import team from '../../../../shared/words/en/console-team.js'

/** The console's words in English, every area's: these keys are the ones every language has. */
const en = { ...shell, ...account, ...team, ...documents, ...bulk, ...send, ...branding, ...errors }
export type ConsoleKey = keyof typeof en
export type ConsoleWords = Record<ConsoleKey, string>
export const CONSOLE_LANGUAGES = LANGUAGE_CODES
export type ConsoleLanguage = Language

/** Every area's file of every language but English, by language and area (`de/console-team`). */
const AREA_FILES = new Map(
  Object.entries(import.meta.glob<{ default: Partial<ConsoleWords> }>(['./*/console-*.ts', '!./en/*.ts'], { base: '../../../../shared/words' })).map(
    ([file, load]) => [file.slice(2, -3), load],
  ),
)
const AREAS = [...new Set([...AREA_FILES.keys()].map((name) => name.split('/')[1]!))]

/** A language's loader: all its areas' files, merged; a missing one rejects, naming it (the console then reads in English). */
const loaderOf = (code: Language) => async (): Promise<ConsoleWords> => {
  const areas = await Promise.all(AREAS.map((area) => AREA_FILES.get(`${code}/${area}`)?.() ?? Promise.reject(new Error(`no console words ${code}/${area}.ts`))))
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
