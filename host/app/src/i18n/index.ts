import { useSyncExternalStore } from 'react'
import { byLanguage, format, type Params } from '../../../shared/i18n.js'
import { LANGUAGE_CODES, directionOf, languageOf, spokenLanguage, type Language } from '../../../shared/languages.js'
import en, { type MessageKey, type Messages } from '../../../shared/words/en/pages.js'

export type { MessageKey }

/**
 * English is built in (it is also every missing key's fallback); the other dictionaries
 * (host/shared/words/<lang>/pages.ts, one per language of LANGUAGES) are loaded on demand, so
 * neither page carries the languages it does not show in its first chunk.
 */
const LOADERS: Record<Language, () => Promise<{ default: Messages }>> = byLanguage(
  import.meta.glob<{ default: Messages }>(['./*/pages.ts', '!./en/pages.ts'], { base: '../../../shared/words' }),
  LANGUAGE_CODES.filter((code) => code !== 'en'),
)
const loaded: Partial<Record<Language, Messages>> = { en }

let messages: Messages = en
let lang: Language = 'en'

/**
 * Chooses the UI language from a code such as `de`, `de-CH` or `fr_FR`; unknown codes give
 * English. Texts are English until loadLanguage has brought the dictionary.
 */
export function setLanguage(code: string | undefined): string {
  lang = languageOf(code)
  messages = loaded[lang] ?? en
  const shown = loaded[lang] ? lang : 'en'
  document.documentElement.lang = shown
  document.documentElement.dir = directionOf(shown)
  for (const listener of listeners) listener()
  return lang
}

const listeners = new Set<() => void>()
/** The page's language, re-rendering the component that reads it when it changes (a picker's choice). */
export function useLanguage(): Language {
  return useSyncExternalStore(
    (listener) => (listeners.add(listener), () => void listeners.delete(listener)),
    () => lang,
  )
}

/** Loads the language's dictionary (once), then chooses it. Never rejects: English if it cannot load. */
export async function loadLanguage(code: string | undefined): Promise<string> {
  const base = languageOf(code)
  if (!loaded[base] && base !== 'en') {
    try {
      loaded[base] = (await LOADERS[base]()).default
    } catch {
      /* stays English */
    }
  }
  return setLanguage(code)
}

export const language = () => lang

/** The first of the browser's preferred languages that is spoken ('fr-CA': fr, 'pt': pt-BR), if any. */
export function browserLanguage(preferred: readonly string[] = navigator.languages ?? [navigator.language]): Language | undefined {
  for (const tag of preferred) {
    const found = spokenLanguage(tag)
    if (found) return found
  }
  return undefined
}

/** A wait in the page's words ("in 30 seconds", "in 12 minutes"): seconds under two minutes, then minutes. */
export function inTime(seconds: number): string {
  const relative = new Intl.RelativeTimeFormat(loaded[lang] ? lang : 'en', { numeric: 'auto' })
  return seconds < 120 ? relative.format(Math.max(1, Math.ceil(seconds)), 'second') : relative.format(Math.ceil(seconds / 60), 'minute')
}

/** The text of `key` in the page's language (English for a key it lacks), `{name}` placeholders filled from `vars` (host/shared/i18n.ts). */
export function t(key: MessageKey, vars?: Params): string {
  return format(messages, key, vars, messages === en ? 'en' : lang, en)
}

type WithoutOne<K> = K extends `${infer Base}.one` ? (`${Base}.other` extends MessageKey ? Base : never) : never
/** The keys that have `.one` and `.other` forms, named without the form (`files.pages`). */
export type CountedKey = WithoutOne<MessageKey>

/** For counted keys: the plural form the language uses for `count` (`.one`, `.few`, `.many`, `.other`, ...). */
export function tn(key: CountedKey, count: number, vars?: Params): string {
  return format(messages, key, { ...vars, count }, messages === en ? 'en' : lang, en)
}
