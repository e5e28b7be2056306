// The e-mails' words by language. Written by scripts/language-registries.ts from LANGUAGES
// (host/shared/languages.ts): do not edit, run it.
import type { Language } from '../../../shared/languages.js'
import en, { type MailWords } from './en.js'
import de from './de.js'
import fr from './fr.js'
import es from './es.js'
import it from './it.js'
import nl from './nl.js'
import pl from './pl.js'
import ptBR from './pt-BR.js'
import he from './he.js'
import ja from './ja.js'
import ko from './ko.js'
import zh from './zh.js'

export const WORDS: Record<Language, MailWords> = { en, de, fr, es, it, nl, pl, 'pt-BR': ptBR, he, ja, ko, zh }
