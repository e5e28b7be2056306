// The evidence documents' words by language. Written by scripts/language-registries.ts from LANGUAGES
// (host/shared/languages.ts): do not edit, run it.
import type { Language } from '../../shared/languages.js'
import en, { type EvidenceWords } from '../../shared/words/en/evidence.js'
import de from '../../shared/words/de/evidence.js'
import fr from '../../shared/words/fr/evidence.js'
import es from '../../shared/words/es/evidence.js'
import it from '../../shared/words/it/evidence.js'
import nl from '../../shared/words/nl/evidence.js'
import pl from '../../shared/words/pl/evidence.js'
import ptBR from '../../shared/words/pt-BR/evidence.js'
import he from '../../shared/words/he/evidence.js'
import ja from '../../shared/words/ja/evidence.js'
import ko from '../../shared/words/ko/evidence.js'
import zh from '../../shared/words/zh/evidence.js'

export const WORDS: Record<Language, EvidenceWords> = { en, de, fr, es, it, nl, pl, 'pt-BR': ptBR, he, ja, ko, zh }
