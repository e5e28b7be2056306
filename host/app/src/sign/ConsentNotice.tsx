/**
 * Consent to sign electronically (docs/consent.md), before the recipient's first action: the
 * notice with the disclosure to read and the button that agrees; once agreed, a line saying so
 * with the way to withdraw (a rejection). A direct link's visitor agrees here and their consent
 * goes with the document they sign.
 */
import { useCallback, useEffect, useState } from 'react'
import { ApiError, type Api } from '../page/api.js'
import { language, t, useLanguage } from '../i18n/index.js'
import { announceFailure } from './auth-info.js'
import { DeclineButtons, DeclineError, useDecline, type DeclineProps } from './decline.js'
import { Dialog } from './Dialog.js'
import { apiMessage } from './refusals.js'

/**
 * The disclosure as the service gives it: the team's own text, or (text null) the service's default
 * words in the language asked for, with their hash. The page shows the service's words only: their
 * hash is what the consent records.
 */
interface ConsentState {
  given: boolean
  disclosure: { version: number; text: string | null; sha256: string | null; default?: { language: string; text: string; sha256: string } }
}

/** What the recipient agreed to: sent with a direct link's signature. */
export interface ConsentGiven {
  version: number
  language: string
  /** The SHA-256 of the words shown: the service refuses a consent to other words. */
  sha256?: string
}

/** `text` null while the words could not be had from the service: nothing to agree to yet. */
export type Consent = { status: 'loading' } | { status: 'needed'; version: number; text: string | null; language: string; sha256?: string } | { status: 'agreed'; given: ConsentGiven }

/** The recipient's consent: asked of the service once per page, given with `agree`. */
export function useConsent(api: Api, direct: boolean, needed: boolean) {
  const [consent, setConsent] = useState<Consent>(needed ? { status: 'loading' } : { status: 'agreed', given: { version: 0, language: language() } })
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  // The words come in the page's language: a picker's choice asks for them again.
  const shownLanguage = useLanguage()
  const load = useCallback(async () => {
    const asked = language()
    let state: ConsentState
    try {
      state = await api.get<ConsentState>(`/consent?language=${encodeURIComponent(asked)}`)
    } catch (e) {
      setError(t('consent.failed', { message: apiMessage(e) }))
      return setConsent((c) => (c.status === 'agreed' ? c : { status: 'needed', version: 0, text: null, language: asked }))
    }
    const d = state.disclosure
    const shown = d.text !== null ? { text: d.text, language: asked, ...(d.sha256 ? { sha256: d.sha256 } : {}) } : d.default ? { text: d.default.text, language: d.default.language, sha256: d.default.sha256 } : { text: null, language: asked }
    setError(null)
    setConsent(state.given ? { status: 'agreed', given: { version: d.version, language: shown.language } } : { status: 'needed', version: d.version, ...shown })
  }, [api])
  useEffect(() => {
    if (needed && consent.status !== 'agreed') void load()
    // eslint-disable-next-line react-hooks/exhaustive-deps -- asked again on the language, not on each state
  }, [load, needed, shownLanguage])

  const agree = useCallback(async () => {
    if (consent.status !== 'needed' || busy) return
    if (consent.text === null) return void load()
    const given: ConsentGiven = { version: consent.version, language: consent.language, ...(consent.sha256 ? { sha256: consent.sha256 } : {}) }
    // A direct link's visitor has no document yet: the consent goes with the signature.
    if (direct) return setConsent({ status: 'agreed', given })
    setBusy(true)
    setError(null)
    try {
      await api.post('/consent', given)
      setConsent({ status: 'agreed', given })
    } catch (e) {
      announceFailure(e)
      if (e instanceof ApiError && e.code === 'DISCLOSURE_CHANGED') {
        setError(t('consent.changed'))
        await load()
      } else setError(t('consent.failed', { message: apiMessage(e) }))
    } finally {
      setBusy(false)
    }
  }, [api, busy, consent, direct, load])

  return { consent, agree, error, busy }
}

/** The notice shown until the recipient agrees: the fields stay closed meanwhile. */
export function ConsentNotice(props: { consent: Consent; onAgree: () => void; error: string | null; busy: boolean }) {
  const { consent } = props
  if (consent.status !== 'needed') return null
  return (
    <section className="consent-notice" aria-labelledby="consent-title" data-testid="consent-notice" data-version={consent.version}>
      <h2 id="consent-title" className="consent-title">
        {t('consent.title')}
      </h2>
      <p>{t('consent.summary')}</p>
      <details className="consent-disclosure" data-testid="consent-disclosure">
        <summary>{t('consent.read')}</summary>
        {/* One text, as its hash was taken: its line breaks (blank lines between paragraphs) kept. */}
        <div className="consent-text" lang={consent.language}>
          {consent.text}
        </div>
      </details>
      <div className="consent-actions">
        <button type="button" className="btn btn-primary" id="consent-agree" onClick={props.onAgree} disabled={props.busy} data-testid="consent-agree">
          {props.busy && <span className="spinner spinner-sm" aria-hidden="true" />}
          {t('consent.agree')}
        </button>
      </div>
      <p className="field-error" role="alert" data-testid="consent-error">
        {props.error}
      </p>
    </section>
  )
}

/** After agreeing: a line saying so, and withdrawing (which declines the document). */
export function ConsentAgreed(props: { onWithdraw: () => void }) {
  return (
    <p className="consent-agreed muted small" data-testid="consent-agreed">
      {t('consent.agreed')}{' '}
      <button type="button" className="btn-link" onClick={props.onWithdraw} data-testid="consent-withdraw">
        {t('consent.withdraw')}
      </button>
    </p>
  )
}

/** Confirms withdrawing: the document is declined with a reason that says so. */
export function WithdrawDialog(props: DeclineProps) {
  const { busy, error, decline } = useDecline(props, '/consent/withdraw')
  return (
    <Dialog
      title={t('consent.withdraw.title')}
      description={t('consent.withdraw.body', { title: props.title })}
      onClose={() => !busy && props.onClose()}
      testId="withdraw-dialog"
      footer={<DeclineButtons busy={busy} onCancel={props.onClose} onConfirm={() => void decline(t('consent.withdraw.reason'))} label={t('consent.withdraw.confirm')} testId="confirm-withdraw" />}
    >
      <DeclineError error={error} />
    </Dialog>
  )
}
