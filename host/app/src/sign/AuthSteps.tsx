/**
 * The recipient's authentication steps (host/server/api/signing-auth.ts): the access gate shown
 * before the document, and the proof asked for when signing, approving or rejecting. A passed
 * check gives a grant the page keeps in memory and sends as a header: no cookie, so it works in
 * a customer's frame where the browser blocks third-party cookies.
 */
import { useId, useState } from 'react'
import type { Api } from '../page/api.js'
import { t } from '../i18n/index.js'
import { GRANT_HEADER, messageOf, useAnnounce, type ActionProof, type AuthInfo } from './auth-info.js'
import { AccountStep, CodeStep, MethodTabs } from './AuthForms.js'
import { Dialog } from './Dialog.js'
import { PasskeyStep } from './PasskeyStep.js'
import { Screen } from './Screens.js'

/** Before the document: the access check the sender asked for. */
export function AccessGate({ api, info, onPassed }: { api: Api; info: AuthInfo; onPassed: () => void }) {
  const [method, setMethod] = useState(info.access.required[0]!)
  useAnnounce('access')
  const granted = (grant: string) => {
    api.setHeader(GRANT_HEADER, grant)
    onPassed()
  }
  return (
    <Screen tone="info" icon="users" title={t('sign.auth.title')} testId="auth-gate">
      <p>{t('sign.auth.accessLead')}</p>
      <MethodTabs methods={info.access.required} current={method} onChange={setMethod} />
        {method === 'TWO_FACTOR_AUTH' ? (
          <CodeStep
            api={api}
            info={info}
            purpose="access"
            onCode={async (code) => granted((await api.post<{ grant: string }>('/auth/access', { method: 'TWO_FACTOR_AUTH', code })).grant)}
          />
        ) : (
          <AccountStep api={api} info={info} onGrant={granted} />
        )}
    </Screen>
  )
}

/**
 * When signing or approving: collects the proof the sender asked for and acts with it
 * (`onProof`). A wrong password or code is told here and the dialog stays open for another try.
 * A recipient asked for a password who has no account yet makes one here (with a code e-mailed
 * to their address) and acts with the password they just chose.
 */
export function ActionAuthDialog({ api, info, onProof, onClose }: { api: Api; info: AuthInfo; onProof: (proof: ActionProof) => Promise<void>; onClose: () => void }) {
  const [method, setMethod] = useState(info.action.required[0]!)
  useAnnounce('action')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [password, setPassword] = useState('')
  const [making, setMaking] = useState(false)
  const id = useId()

  /** Acts with `proof`; a refusal shows in this dialog. */
  const act = async (proof: ActionProof) => {
    setBusy(true)
    setError(null)
    try {
      await onProof(proof)
    } catch (e) {
      setError(messageOf(e))
      setBusy(false)
    }
  }
  const granted = (grant: string) => api.setHeader(GRANT_HEADER, grant)

  return (
    <Dialog
      title={t('sign.auth.actionTitle')}
      description={t('sign.auth.actionLead')}
      onClose={onClose}
      testId="auth-action"
      footer={
        <button type="button" className="btn btn-secondary" onClick={onClose}>
          {t('sign.auth.cancel')}
        </button>
      }
    >
      <MethodTabs methods={info.action.required} current={method} onChange={(m) => (setMethod(m), setError(null))} />
      {method === 'TWO_FACTOR_AUTH' && <CodeStep api={api} info={info} purpose="action" onCode={(code) => onProof({ method: 'TWO_FACTOR_AUTH', code })} />}
      {method === 'ACCOUNT' &&
        (info.signedIn ? (
          <div className="auth-buttons">
            <button type="button" className="btn btn-primary" onClick={() => act({ method: 'ACCOUNT' })} disabled={busy} data-testid="auth-confirm">
              {t('sign.auth.confirm')}
            </button>
          </div>
        ) : (
          <AccountStep api={api} info={info} onGrant={(grant) => (granted(grant), onProof({ method: 'ACCOUNT' }))} />
        ))}
      {method === 'PASSWORD' &&
        (making ? (
          <>
            <AccountStep api={api} info={info} createOnly onGrant={(grant, chosen) => (granted(grant), onProof({ method: 'PASSWORD', password: chosen }))} />
            <button type="button" className="btn btn-secondary btn-small" onClick={() => setMaking(false)} data-testid="auth-toggle-account">
              {t('sign.auth.haveAccount')}
            </button>
          </>
        ) : (
          <form
            className="auth-step"
            onSubmit={(e) => {
              e.preventDefault()
              void act({ method: 'PASSWORD', password })
            }}
          >
            <div className="auth-field">
              <label className="label" htmlFor={`${id}-password`}>{t('sign.auth.password', { email: info.email })}</label>
              <input
                id={`${id}-password`}
                className="input"
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
                data-testid="auth-password"
              />
            </div>
            <div className="auth-buttons">
              <button type="submit" className="btn btn-primary" disabled={busy || !password} data-testid="auth-confirm">
                {t('sign.auth.confirm')}
              </button>
              {info.account?.password !== true && (
                <button type="button" className="btn btn-secondary btn-small" onClick={() => (setMaking(true), setError(null))} data-testid="auth-toggle-account">
                  {t('sign.auth.wantAccount')}
                </button>
              )}
            </div>
          </form>
        ))}
      {method === 'PASSKEY' && <PasskeyStep api={api} info={info} onProof={onProof} setError={setError} />}
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert" data-testid="auth-error">
          {error}
        </p>
      )}
    </Dialog>
  )
}
