/**
 * The verification page's words (dictionaries.ts) in the reader's language: the browser's, unless
 * `?lang=` says otherwise. The page is its own small chunk: its words live with it.
 */
import { languageOf } from '../../../shared/languages.js'
import { VERIFY_DICTIONARIES, type VerifyWord } from './dictionaries.js'

export type { VerifyWord }

export const verifyLanguage = languageOf(new URLSearchParams(location.search).get('lang') ?? navigator.language)

/** The text of `key`, `{name}` placeholders filled from `vars`. */
export function vt(key: VerifyWord, vars: Record<string, string | number> = {}): string {
  return VERIFY_DICTIONARIES[verifyLanguage][key].replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m))
}
