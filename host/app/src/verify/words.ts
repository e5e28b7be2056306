/**
 * The verification page's words (words/<language>.ts), chosen from the browser's language
 * (`?lang=` overrides it). The page is its own small chunk: its words live with it.
 */
import { languageOf, type Language } from '../../../shared/languages.js'
import de from './words/de.js'
import en from './words/en.js'
import fr from './words/fr.js'

export type VerifyWord = keyof typeof en

export const VERIFY_DICTIONARIES: Record<Language, Record<VerifyWord, string>> = { en, de, fr }

export const verifyLanguage = languageOf(new URLSearchParams(location.search).get('lang') ?? navigator.language)

/** The text of `key`, `{name}` placeholders filled from `vars`. */
export function vt(key: VerifyWord, vars: Record<string, string | number> = {}): string {
  return VERIFY_DICTIONARIES[verifyLanguage][key].replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m))
}
