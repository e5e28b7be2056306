/**
 * The signer's choice among the languages the service speaks, shown on the signing page. The page
 * starts in the choice made earlier in this browser session, else the embed's `language`, else the
 * document's language; a choice is kept for the session (sessionStorage), across reloads.
 */
import { LANGUAGES } from '../../../shared/languages.js'
import { loadLanguage, t, useLanguage } from '../i18n/index.js'

const KEY = 'envelope-embed.signing-language'

/** The language the signer chose in this session, if any. */
export function chosenLanguage(): string | undefined {
  try {
    return sessionStorage.getItem(KEY) ?? undefined
  } catch {
    return undefined
  }
}

/** The language the page starts in: the signer's choice, the embed's, the document's, the browser's. */
export const startLanguage = (embed: string | undefined, document: string | undefined): string => chosenLanguage() ?? embed ?? document ?? navigator.language

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
