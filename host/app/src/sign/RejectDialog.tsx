import { useId, useState } from 'react'
import { t } from '../i18n/index.js'
import { DeclineButtons, DeclineError, useDecline, type DeclineProps } from './decline.js'
import { Dialog } from './Dialog.js'

const REASON_MAX = 500

/** Declines to sign, with the reason the sender reads. */
export function RejectDialog(props: DeclineProps) {
  const [reason, setReason] = useState('')
  // Declining needs no action proof: the access check the page passed is enough.
  const { busy, error, decline } = useDecline(props, '/reject')
  const [missing, setMissing] = useState(false)
  const ids = useId()

  function submit() {
    const text = reason.trim()
    if (!text) {
      setMissing(true)
      document.getElementById(`${ids}-reason`)?.focus()
      return
    }
    void decline(text)
  }

  return (
    <Dialog
      title={t('sign.reject.title')}
      description={t('sign.reject.body', { title: props.title })}
      onClose={() => !busy && props.onClose()}
      testId="reject-dialog"
      footer={<DeclineButtons busy={busy} onCancel={props.onClose} onConfirm={submit} label={t('sign.reject.confirm')} testId="confirm-reject" />}
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
      <DeclineError error={error} />
    </Dialog>
  )
}
