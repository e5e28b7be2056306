import { useId, useState } from 'react'
import { ApiError, type Api } from '../api.js'
import { t } from '../i18n/index.js'
import { announceFailure } from './auth-info.js'
import { Dialog } from './Dialog.js'
import { apiMessage, STALE } from './refusals.js'

const REASON_MAX = 500

/** Declines to sign, with the reason the sender reads. */
export function RejectDialog(props: {
  api: Api
  title: string
  onClose: () => void
  onRejected: (reason: string) => void
  onStale: () => void
}) {
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [missing, setMissing] = useState(false)
  const ids = useId()

  async function submit() {
    const text = reason.trim()
    if (!text) {
      setMissing(true)
      document.getElementById(`${ids}-reason`)?.focus()
      return
    }
    setBusy(true)
    setError(null)
    try {
      // Declining needs no action proof: the access check the page passed is enough.
      await props.api.post('/reject', { reason: text })
      props.onRejected(text)
    } catch (e) {
      setBusy(false)
      if (e instanceof ApiError && STALE.has(e.code)) return props.onStale()
      announceFailure(e)
      setError(t('sign.error.rejectFailed', { message: apiMessage(e) }))
    }
  }

  return (
    <Dialog
      title={t('sign.reject.title')}
      description={t('sign.reject.body', { title: props.title })}
      onClose={() => !busy && props.onClose()}
      testId="reject-dialog"
      footer={
        <>
          <button type="button" className="btn" onClick={props.onClose} disabled={busy}>
            {t('sign.cancel')}
          </button>
          <button type="button" className="btn btn-danger" onClick={submit} disabled={busy} data-testid="confirm-reject">
            {busy && <span className="spinner spinner-sm" aria-hidden="true" />}
            {t('sign.reject.confirm')}
          </button>
        </>
      }
    >
      <div className="form-field">
        <label className="label" htmlFor={`${ids}-reason`}>
          {t('sign.reject.reason')} <span className="required-mark">{t('sign.field.requiredMark')}</span>
        </label>
        <textarea
          id={`${ids}-reason`}
          className="input"
          rows={4}
          maxLength={REASON_MAX}
          value={reason}
          required
          aria-invalid={missing || undefined}
          aria-describedby={`${ids}-count ${ids}-missing`}
          onChange={(e) => {
            setReason(e.target.value)
            setMissing(false)
          }}
        />
        <div className="reason-meta">
          <p id={`${ids}-missing`} className="field-error">
            {missing ? t('sign.reject.reasonMissing') : ''}
          </p>
          <span id={`${ids}-count`} className="muted small">
            {t('sign.reject.count', { count: reason.length, max: REASON_MAX })}
          </span>
        </div>
      </div>
      <p className="field-error" role="alert">
        {error}
      </p>
    </Dialog>
  )
}
