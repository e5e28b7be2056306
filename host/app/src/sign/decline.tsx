/**
 * Declining a document, shared by the reject dialog and withdrawing consent (itself a
 * rejection): the request, its busy state and failure, and the dialog's two buttons.
 */
import { useState } from 'react'
import { ApiError, type Api } from '../page/api.js'
import { t } from '../i18n/index.js'
import { announceFailure } from './auth-info.js'
import { apiMessage, STALE } from './refusals.js'

export interface DeclineProps {
  api: Api
  title: string
  onClose: () => void
  onRejected: (reason: string) => void
  onStale: () => void
}

/** Posts the reason to `path`; a document that moved on meanwhile goes to onStale. */
export function useDecline(props: DeclineProps, path: string) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  async function decline(reason: string) {
    setBusy(true)
    setError(null)
    try {
      await props.api.post(path, { reason })
      props.onRejected(reason)
    } catch (e) {
      setBusy(false)
      if (e instanceof ApiError && STALE.has(e.code)) return props.onStale()
      announceFailure(e)
      setError(t('sign.error.rejectFailed', { message: apiMessage(e) }))
    }
  }
  return { busy, error, decline }
}

/** Cancel, and the confirming button (danger) with a spinner while the request runs. */
export function DeclineButtons(props: { busy: boolean; onCancel: () => void; onConfirm: () => void; label: string; testId: string }) {
  return (
    <>
      <button type="button" className="btn" onClick={props.onCancel} disabled={props.busy}>
        {t('sign.cancel')}
      </button>
      <button type="button" className="btn btn-danger" onClick={props.onConfirm} disabled={props.busy} data-testid={props.testId}>
        {props.busy && <span className="spinner spinner-sm" aria-hidden="true" />}
        {props.label}
      </button>
    </>
  )
}

/** The failure of the last try, read out when it appears. */
export function DeclineError(props: { error: string | null }) {
  return (
    <p className="field-error" role="alert">
      {props.error}
    </p>
  )
}
