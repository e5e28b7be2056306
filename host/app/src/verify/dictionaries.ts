/** The verification page's words in every language the service speaks, one file per language. */
import type { Language } from '../../../shared/languages.js'
import de from './words/de.js'
import en from './words/en.js'
import es from './words/es.js'
import fr from './words/fr.js'
import it from './words/it.js'
import nl from './words/nl.js'
import pl from './words/pl.js'
import ptBR from './words/pt-BR.js'
import he from './words/he.js'
import ja from './words/ja.js'
import ko from './words/ko.js'
import zh from './words/zh.js'

export type VerifyWord = keyof typeof en

export const VERIFY_DICTIONARIES: Record<Language, Record<VerifyWord, string>> = { en, de, fr, es, it, nl, 'pt-BR': ptBR, pl, he, ja, ko, zh }
