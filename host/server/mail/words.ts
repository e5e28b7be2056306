// The e-mails' words by language. Written by scripts/language-registries.ts from LANGUAGES
// (host/shared/languages.ts): do not edit, run it.
import type { Language } from '../../shared/languages.js'
import en, { type MailWords } from '../../shared/words/en/mail.js'
import de from '../../shared/words/de/mail.js'
import fr from '../../shared/words/fr/mail.js'
import es from '../../shared/words/es/mail.js'
import it from '../../shared/words/it/mail.js'
import nl from '../../shared/words/nl/mail.js'
import pl from '../../shared/words/pl/mail.js'
import ptBR from '../../shared/words/pt-BR/mail.js'
import he from '../../shared/words/he/mail.js'
import ja from '../../shared/words/ja/mail.js'
import ko from '../../shared/words/ko/mail.js'
import zh from '../../shared/words/zh/mail.js'

export const WORDS: Record<Language, MailWords> = { en, de, fr, es, it, nl, pl, 'pt-BR': ptBR, he, ja, ko, zh }
