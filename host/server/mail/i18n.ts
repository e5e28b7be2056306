/**
 * The words of the service's e-mails in every language it speaks, one file per language
 * (words/<language>.ts): English defines the shape and every other language is typed against it.
 */
import { languageOf, type Language } from '../../shared/languages.js'
import de from './words/de.js'
import en, { type MailStrings } from './words/en.js'
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

export type { MailStrings }
export type MailLanguage = Language

/** The roles that act on a document; CC gets no signing request and falls back to VIEWER. */
export type ActingRole = 'SIGNER' | 'APPROVER' | 'VIEWER' | 'ASSISTANT'

export const MAIL_STRINGS: Record<Language, MailStrings> = { en, de, fr, es, it, nl, 'pt-BR': ptBR, pl, he, ja, ko, zh }

/** documentMeta.language as a mail language: a language spoken by its primary subtag ("de-AT" is German); anything else English. */
export const mailLanguage = (tag: unknown): MailLanguage => languageOf(tag)

export function actingRole(role: string): ActingRole {
  return role === 'SIGNER' || role === 'APPROVER' || role === 'ASSISTANT' ? role : 'VIEWER'
}
