import { useId, useState } from 'react'
import type { Api } from '../page/api.js'
import { t } from '../i18n/index.js'
import { directActionStep, GRANT_HEADER, messageOf, useAnnounce, type AccessProof, type ActionProof, type AuthInfo, type DirectAuthInfo } from './auth-info.js'
import { AccountStep, CodeStep } from './AuthForms.js'
import { Dialog } from './Dialog.js'
import { PasskeyStep } from './PasskeyStep.js'

/**
 * A direct link's visitor, as they sign: the link recipient's access check and action, proved for
 * the address they gave; resolves with both proofs for the complete request. A sign-in here (for
 * a passkey to add, or an account asked for) gives a grant for that address, sent as a header.
 */
export function DirectAuthDialog(props: {
  api: Api
  info: DirectAuthInfo
  email: string
  onProofs: (proofs: { access?: AccessProof; auth?: ActionProof }) => Promise<void>
  onClose: () => void
}) {
  const { api, info, email } = props
  const [access, setAccess] = useState<AccessProof | null>(info.access.required.length ? null : ({} as AccessProof))
  const [password, setPassword] = useState('')
  const [code, setCode] = useState('')
  const id = useId()
  useAnnounce(info.access.required.length ? 'access' : 'action')
  const step = directActionStep(info)
  const [signedIn, setSignedIn] = useState(false)
  const view: AuthInfo = { access: { required: info.access.required, satisfied: false }, action: info.action, signedIn, email, language: info.language, languageChosen: info.languageChosen, account: null }
  const [error, setError] = useState<string | null>(null)
  const granted = (grant: string) => (api.setHeader(GRANT_HEADER, grant), setSignedIn(true))
  // A visitor with no account for their address makes one here, then goes on with its password.
  const [making, setMaking] = useState(false)
  const made = (grant: string, pw: string) => {
    setMaking(false)
    granted(grant)
    if (access === null) accessDone({ method: 'ACCOUNT', password: pw })
    else void finish(access, { method: 'PASSWORD', password: pw })
  }
  const makeToggle = (
    <button type="button" className="btn btn-secondary btn-small" onClick={() => (setMaking(true), setError(null))} data-testid="auth-toggle-account">
      {t('sign.auth.wantAccount')}
    </button>
  )
  // After a refusal the dialog starts over from the access step (a code is spent once checked).
  const send = async (a: AccessProof | null, auth?: ActionProof) => {
    try {
      await props.onProofs({ ...(a && 'method' in a ? { access: a } : {}), ...(auth ? { auth } : {}) })
    } catch (e) {
      if (info.access.required.length) setAccess(null)
      throw e
    }
  }
  const finish = async (a: AccessProof | null, auth?: ActionProof) => {
    setError(null)
    await send(a, auth).catch((e: unknown) => setError(messageOf(e)))
  }
  const accessDone = (a: AccessProof) => {
    setAccess(a)
    if (step === 'NONE') void finish(a)
  }
  return (
    <Dialog title={t('sign.auth.actionTitle')} description={t('sign.auth.actionLead')} onClose={props.onClose} testId="auth-action" footer={<button type="button" className="btn btn-secondary" onClick={props.onClose}>{t('sign.auth.cancel')}</button>}>
      {making ? (
        <AccountStep api={api} info={view} createOnly to={email} onGrant={made} />
      ) : access === null ? (
        info.access.required[0] === 'TWO_FACTOR_AUTH' ? (
          <CodeStep api={api} info={view} purpose="access" to={email} onCode={async (c) => accessDone({ method: 'TWO_FACTOR_AUTH', code: c })} />
        ) : (
          <form className="auth-step" onSubmit={(e) => (e.preventDefault(), accessDone({ method: 'ACCOUNT', password, ...(code.trim() ? { code: code.trim() } : {}) }))}>
            <p>{t('sign.auth.signInLead', { email })}</p>
            <div className="auth-field">
              <label className="label" htmlFor={`${id}-password`}>{t('sign.auth.password', { email })}</label>
              <input id={`${id}-password`} className="input" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} data-testid="auth-password" />
            </div>
            <div className="auth-field">
              <label className="label" htmlFor={`${id}-totp`}>{t('sign.auth.totp')}</label>
              <input id={`${id}-totp`} className="input" inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} />
            </div>
            <div className="auth-buttons">
              <button type="submit" className="btn btn-primary" disabled={!password} data-testid="auth-sign-in">{t('sign.auth.signIn')}</button>
              {makeToggle}
            </div>
          </form>
        )
      ) : step === 'TWO_FACTOR_AUTH' ? (
        <CodeStep api={api} info={view} purpose="action" to={email} onCode={async (c) => finish(access, { method: 'TWO_FACTOR_AUTH', code: c })} />
      ) : step === 'PASSKEY' ? (
        <PasskeyStep api={api} info={view} to={email} onProof={(auth) => send(access, auth)} setError={setError} withOthers={info.access.required.length > 0} />
      ) : step === 'ACCOUNT' ? (
        <AccountStep api={api} info={view} to={email} onGrant={(grant) => (granted(grant), finish(access, { method: 'ACCOUNT' }))} />
      ) : (
        <form className="auth-step" onSubmit={(e) => (e.preventDefault(), void finish(access, { method: 'PASSWORD', password }))}>
          <div className="auth-field">
            <label className="label" htmlFor={`${id}-action-password`}>{t('sign.auth.password', { email })}</label>
            <input id={`${id}-action-password`} className="input" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} data-testid="auth-password" />
          </div>
          <div className="auth-buttons">
            <button type="submit" className="btn btn-primary" disabled={!password} data-testid="auth-confirm">{t('sign.auth.confirm')}</button>
            {makeToggle}
          </div>
        </form>
      )}
      {error && (
        <p className="field-error" role="alert" data-testid="auth-error">
          {error}
        </p>
      )}
    </Dialog>
  )
}
