/**
 * The verification page's words (dictionaries.ts) in the reader's language: the browser's, unless
 * `?lang=` says otherwise. The page is its own small chunk: its words live with it.
 */
import { format, type Params } from '../../../shared/i18n.js'
import { languageOf } from '../../../shared/languages.js'
import { VERIFY_DICTIONARIES, type VerifyWord } from './dictionaries.js'

export type { VerifyWord }

export const verifyLanguage = languageOf(new URLSearchParams(location.search).get('lang') ?? navigator.language)

/** The text of `key`, `{name}` placeholders filled from `vars` (host/shared/i18n.ts). */
export function vt(key: VerifyWord, vars: Params = {}): string {
  return format(VERIFY_DICTIONARIES[verifyLanguage], key, vars, verifyLanguage, VERIFY_DICTIONARIES.en)
}
