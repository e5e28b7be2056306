/**
 * The languages the service speaks, for the server (e-mails, certificate, audit log) and the pages
 * (authoring, signing, console, verification) alike. Every dictionary is keyed by these codes, so a
 * language added here is a type error until each dictionary has it.
 */
export const LANGUAGES = [
  { code: 'en', name: 'English', dir: 'ltr' },
  { code: 'de', name: 'Deutsch', dir: 'ltr' },
  { code: 'fr', name: 'Français', dir: 'ltr' },
  { code: 'es', name: 'Español', dir: 'ltr' },
  { code: 'it', name: 'Italiano', dir: 'ltr' },
  { code: 'nl', name: 'Nederlands', dir: 'ltr' },
  { code: 'pl', name: 'Polski', dir: 'ltr' },
  { code: 'pt-BR', name: 'Português (Brasil)', dir: 'ltr' },
  { code: 'he', name: 'עברית', dir: 'rtl' },
  { code: 'ja', name: '日本語', dir: 'ltr' },
  { code: 'ko', name: '한국어', dir: 'ltr' },
  { code: 'zh', name: '中文（简体）', dir: 'ltr' },
] as const satisfies readonly LanguageInfo[]

export interface LanguageInfo {
  /** BCP 47 tag: a primary language subtag, with a region only where the region changes the words. */
  code: string
  /** The language's own name for itself: shown in pickers without translation. */
  name: string
  dir: 'ltr' | 'rtl'
}

export type Language = (typeof LANGUAGES)[number]['code']

export const LANGUAGE_CODES = LANGUAGES.map((l) => l.code) as [Language, ...Language[]]

/**
 * Offered as a document's language although the service still writes them in English (its e-mails,
 * pages and evidence documents): the document keeps the setting, the reader gets English. None
 * now: a language can be offered here before its dictionaries are complete.
 */
export const ENGLISH_FALLBACK_LANGUAGES: readonly LanguageInfo[] = []

/** What a document's language can be set to: the languages spoken, then those read in English. */
export const DOCUMENT_LANGUAGES: readonly LanguageInfo[] = [...LANGUAGES, ...ENGLISH_FALLBACK_LANGUAGES]

export const isLanguage = (code: unknown): code is Language => LANGUAGE_CODES.includes(code as Language)

/**
 * The language spoken for a tag such as `de`, `de-CH`, `fr_FR` or `pt-br`: the whole tag if it is
 * one, else by its primary subtag, case ignored; anything else (or nothing) is none.
 */
export function spokenLanguage(tag: unknown): Language | undefined {
  const whole = typeof tag === 'string' ? tag.trim().toLowerCase().replace(/_/g, '-') : ''
  const primary = whole.split('-')[0]
  return LANGUAGE_CODES.find((c) => c.toLowerCase() === whole) ?? LANGUAGE_CODES.find((c) => c.toLowerCase().split('-')[0] === primary)
}

/** As spokenLanguage, with English for anything else. */
export const languageOf = (tag: unknown): Language => spokenLanguage(tag) ?? 'en'

export const directionOf = (code: Language): 'ltr' | 'rtl' => LANGUAGES.find((l) => l.code === code)!.dir
