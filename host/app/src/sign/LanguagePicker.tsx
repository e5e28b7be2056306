/**
 * The signer's choice among the languages the service speaks, shown on the signing page. The page
 * starts in the choice made earlier in this browser session, else the embed's `language`, else the
 * document's language if the sender chose one, else the browser's; a choice is kept for the
 * session (sessionStorage), across reloads.
 */
import { LANGUAGES } from '../../../shared/languages.js'
import { browserLanguage, loadLanguage, t, useLanguage } from '../i18n/index.js'

const KEY = 'envelope-embed.signing-language'

/** The language the signer chose in this session, if any. */
export function chosenLanguage(): string | undefined {
  try {
    return sessionStorage.getItem(KEY) ?? undefined
  } catch {
    return undefined
  }
}

/** What the service says of the document's language (the session, or the access steps before it). */
export interface DocumentLanguage {
  language: string
  /** False: `language` is the service's default, not the sender's choice. */
  languageChosen: boolean
}

/** The language the page starts in: the signer's choice, the embed's, the one the sender chose, the browser's, English. */
export const startLanguage = (embed: string | undefined, document: DocumentLanguage | undefined): string =>
  chosenLanguage() ?? embed ?? (document?.languageChosen ? document.language : undefined) ?? browserLanguage() ?? 'en'

export function LanguagePicker() {
  const current = useLanguage()
  const choose = (code: string) => {
    try {
      sessionStorage.setItem(KEY, code)
    } catch {
      /* storage refused: the choice lasts this page */
    }
    void loadLanguage(code)
  }
  return (
    <label className="sign-language">
      <span className="sr-only">{t('sign.language')}</span>
      <select className="input input-sm" value={current} onChange={(e) => choose(e.target.value)} data-testid="sign-language">
        {LANGUAGES.map((l) => (
          <option key={l.code} value={l.code} lang={l.code}>
            {l.name}
          </option>
        ))}
      </select>
    </label>
  )
}
