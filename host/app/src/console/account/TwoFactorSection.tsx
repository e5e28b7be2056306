import { useState, type FormEvent } from 'react'
import type { Account } from '../../../../shared/console-contract.js'
import { consoleApi } from '../api.js'
import { ct } from '../i18n/index.js'
import { ErrorAlert, Field, useAction } from './parts.js'
import { QrCode } from './QrCode.js'
import { RecoveryCodes } from './RecoveryCodes.js'
import { Section } from './Section.js'

type Step = { kind: 'idle' } | { kind: 'setup'; secret: string; uri: string } | { kind: 'codes'; codes: string[] } | { kind: 'disable' }

/** Two-factor with an authenticator app (TOTP): turn on (QR code, confirm with a code), recovery codes, turn off. */
export function TwoFactorSection({ totp, onChanged }: { totp: Account['totp']; onChanged: () => Promise<void> }) {
  const [step, setStep] = useState<Step>({ kind: 'idle' })
  const [code, setCode] = useState('')
  const [password, setPassword] = useState('')
  const { busy, error, setError, run } = useAction()
  const go = (s: Step) => {
    setCode('')
    setPassword('')
    setError(null)
    setStep(s)
  }

  const start = () => void run(async () => go({ kind: 'setup', ...(await consoleApi('/account/totp/setup', { body: {} })) }))
  const confirm = (e: FormEvent) => {
    e.preventDefault()
    void run(async () => {
      const { recoveryCodes } = await consoleApi('/account/totp/confirm', { body: { code } })
      go({ kind: 'codes', codes: recoveryCodes })
      await onChanged()
    })
  }
  const newCodes = () =>
    void run(async () => {
      const { recoveryCodes } = await consoleApi('/account/recovery-codes', { body: {} })
      go({ kind: 'codes', codes: recoveryCodes })
      await onChanged()
    })
  const disable = (e: FormEvent) => {
    e.preventDefault()
    void run(async () => {
      await consoleApi('/account/totp/disable', { body: code ? { code } : { password } })
      go({ kind: 'idle' })
      await onChanged()
    })
  }

  return (
    <Section id="two-factor-title" title={ct('account.totp.title')} intro={ct('account.totp.intro')}>
      <ErrorAlert error={error} />
      {step.kind === 'codes' ? (
        <div className="stack" role="region" aria-labelledby="codes-title">
          <h3 id="codes-title">{ct('account.totp.codesTitle')}</h3>
          <p>{ct('account.totp.codesIntro')}</p>
          <RecoveryCodes codes={step.codes} />
          <div>
            <button className="btn btn-primary" type="button" onClick={() => go({ kind: 'idle' })}>
              {ct('account.totp.codesDone')}
            </button>
          </div>
        </div>
      ) : step.kind === 'setup' ? (
        <form className="stack" onSubmit={confirm}>
          <p>{ct('account.totp.scan')}</p>
          <div className="account-totp-setup">
            <QrCode text={step.uri} label={ct('account.totp.qrLabel')} />
            <div className="stack-sm">
              <span className="muted small">{ct('account.totp.manual')}</span>
              <code className="account-secret">{step.secret.match(/.{1,4}/g)?.join(' ')}</code>
            </div>
          </div>
          <Field label={ct('account.totp.code')} value={code} onChange={setCode} autoComplete="one-time-code" inputMode="numeric" required autoFocus />
          <div className="account-actions">
            <button className="btn btn-primary" type="submit" disabled={busy}>
              {ct('account.totp.confirm')}
            </button>
            <button className="btn btn-secondary" type="button" onClick={() => go({ kind: 'idle' })}>
              {ct('account.cancel')}
            </button>
          </div>
        </form>
      ) : !totp.enabled ? (
        <div className="account-actions">
          <span className="badge">{ct('account.totp.off')}</span>
          <button className="btn btn-primary" type="button" onClick={start} disabled={busy}>
            {ct('account.totp.turnOn')}
          </button>
        </div>
      ) : step.kind === 'disable' ? (
        <form className="stack" onSubmit={disable}>
          <p>{ct('account.totp.disableIntro')}</p>
          <Field label={ct('account.totp.code')} value={code} onChange={setCode} autoComplete="one-time-code" inputMode="numeric" autoFocus />
          <Field label={ct('account.currentPassword')} type="password" value={password} onChange={setPassword} autoComplete="current-password" />
          <div className="account-actions">
            <button className="btn btn-danger-outline" type="submit" disabled={busy || (!code && !password)}>
              {ct('account.totp.turnOff')}
            </button>
            <button className="btn btn-secondary" type="button" onClick={() => go({ kind: 'idle' })}>
              {ct('account.cancel')}
            </button>
          </div>
        </form>
      ) : (
        <div className="stack">
          <p>
            <span className="badge">{ct('account.totp.on')}</span> {ct('account.totp.codesLeft', { count: totp.recoveryCodesLeft })}
          </p>
          <div className="account-actions">
            <button className="btn btn-secondary" type="button" onClick={newCodes} disabled={busy}>
              {ct('account.totp.newCodes')}
            </button>
            <button className="btn btn-danger-outline" type="button" onClick={() => go({ kind: 'disable' })}>
              {ct('account.totp.turnOff')}
            </button>
          </div>
        </div>
      )}
    </Section>
  )
}
