/**
 * The verification page's words in every language the service speaks, one file per language
 * (host/shared/words/<language>/verify.ts, eager: the page is small); the list of languages is
 * LANGUAGES alone.
 */
import { byLanguage } from '../../../shared/i18n.js'
import { LANGUAGE_CODES, type Language } from '../../../shared/languages.js'
import type en from '../../../shared/words/en/verify.js'

export type VerifyWord = keyof typeof en

export const VERIFY_DICTIONARIES: Record<Language, Record<VerifyWord, string>> = byLanguage(
  import.meta.glob<Record<VerifyWord, string>>('./*/verify.ts', { base: '../../../shared/words', eager: true, import: 'default' }),
  LANGUAGE_CODES,
)
