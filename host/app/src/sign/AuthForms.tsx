/** The forms the authentication steps are made of: a code, an account, the choice of method. */
import { useEffect, useId, useState, type FormEvent } from 'react'
import { ApiError, type Api } from '../page/api.js'
import { t, type MessageKey } from '../i18n/index.js'
import { isAuthFailure, messageOf, type AuthInfo } from './auth-info.js'
import { rememberCode, rememberedCode, scopeOf } from './proof-store.js'

/** Sends a code by e-mail (to `to`, a direct link visitor's address), then takes it (or one from the account's authenticator app). */
export function CodeStep({ api, info, purpose, onCode, to, lead, wasSent = false }: { api: Api; info: AuthInfo; purpose: 'access' | 'action' | 'account'; onCode: (code: string) => Promise<void>; to?: string; lead?: string; wasSent?: boolean }) {
  // A code this device was sent before a reload (or in another tab) is still the one to type.
  const [remembered] = useState(() => rememberedCode(scopeOf(api), purpose, to))
  const [sent, setSent] = useState(wasSent || remembered !== null)
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const wait = useCountdown(remembered?.resendAt ?? 0)
  const id = useId()
  // An authenticator app is spoken of (and its code taken before any e-mail) only once the page
  // knows the account has one; before, the words are about the code we e-mail.
  const appCode = purpose !== 'account' && info.account?.totp === true
  const send = async () => {
    setBusy(true)
    setError(null)
    try {
      const answer = await api.post<{ expiresAt: string; resendAt: string }>('/auth/code', { purpose, ...(to ? { email: to } : {}) })
      const times = { expiresAt: Date.parse(answer.expiresAt), resendAt: Date.parse(answer.resendAt) }
      rememberCode(scopeOf(api), purpose, to, times)
      wait.until(times.resendAt)
      setSent(true)
    } catch (e) {
      // Another tab (or a moment ago) sent one: it is the code to type, and the wait is the service's.
      if (e instanceof ApiError && e.code === 'CODE_COOLDOWN') (setSent(true), wait.until(Date.now() + (e.retryAfter ?? 30) * 1000))
      setError(messageOf(e))
    } finally {
      setBusy(false)
    }
  }
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    setError(null)
    try {
      await onCode(code.trim())
    } catch (err) {
      setError(messageOf(err))
      setBusy(false)
    }
  }
  return (
    <form className="auth-step" onSubmit={submit} data-testid="auth-code">
      <p>{sent ? t('sign.auth.codeSent', { email: info.email }) : (lead ?? t('sign.auth.codeLead', { email: info.email }))}</p>
      {(sent || appCode) && (
        <div className="auth-field">
          <label className="label" htmlFor={`${id}-code`}>{t('sign.auth.code')}</label>
          <input
            id={`${id}-code`}
            className="input auth-code-input"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={8}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            data-testid="auth-code-input"
          />
          <p className="muted small">{t(appCode ? 'sign.auth.codeHintApp' : 'sign.auth.codeHint')}</p>
        </div>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="auth-buttons">
        {(sent || appCode) && (
          <button type="submit" className="btn btn-primary" disabled={busy || code.trim().length < 6} data-testid="auth-confirm">
            {t('sign.auth.confirm')}
          </button>
        )}
        <button type="button" className={`btn ${sent ? 'btn-secondary' : 'btn-primary'}`} disabled={busy || wait.seconds > 0} onClick={send} data-testid="auth-send-code">
          {!sent ? t('sign.auth.sendCode') : wait.seconds > 0 ? t('sign.auth.resendIn', { seconds: wait.seconds }) : t('sign.auth.resend')}
        </button>
      </div>
    </form>
  )
}

/** Seconds left until a moment (0 once passed), counted down once a second; `until` sets a new moment. */
function useCountdown(initial: number) {
  const [at, setAt] = useState(initial)
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (at <= Date.now()) return
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [at])
  return { seconds: Math.max(0, Math.ceil((at - now) / 1000)), until: (moment: number) => (setAt(moment), setNow(Date.now())) }
}

/**
 * Signs in with the recipient's account (password, and its authenticator code when it may have
 * one), or makes the account: a code e-mailed to the address first, then the name and password.
 */
export function AccountStep({ api, info, onGrant, createOnly, to }: { api: Api; info: AuthInfo; onGrant: (grant: string, password: string) => void | Promise<void>; createOnly?: boolean; to?: string }) {
  const [name, setName] = useState('')
  const [password, setPassword] = useState('')
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const id = useId()
  const [create, setCreate] = useState(createOnly || info.account?.exists === false)
  const [accountCode, setAccountCode] = useState<string | null>(null)
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    setError(null)
    try {
      // A direct link's visitor names the address they gave (`to`): the grant counts for it only.
      const visitor = to ? { email: to } : {}
      const { grant } = create
        ? await api.post<{ grant: string }>('/auth/account', { name: name.trim() || undefined, password, code: accountCode, ...visitor })
        : await api.post<{ grant: string }>('/auth/access', { method: 'ACCOUNT', password, ...(code.trim() ? { code: code.trim() } : {}), ...visitor })
      await onGrant(grant, password)
    } catch (err) {
      setError(messageOf(err))
      setBusy(false)
      // A wrong or spent code for the new account: back to the code, the error said there.
      if (create && isAuthFailure(err) && err.status !== 429) setAccountCode(null)
    }
  }
  const toggle = createOnly ? null : (
    <button type="button" className="btn btn-secondary btn-small" onClick={() => (setCreate(!create), setAccountCode(null), setError(null))} data-testid="auth-toggle-account">
      {create ? t('sign.auth.haveAccount') : t('sign.auth.wantAccount')}
    </button>
  )
  // Making an account: the address is proven first, with a code e-mailed to it.
  if (create && accountCode === null) {
    return (
      <div data-testid="auth-account">
        <CodeStep api={api} info={info} purpose="account" to={to} wasSent={error !== null} lead={t('sign.auth.accountCodeLead', { email: info.email })} onCode={async (c) => (setError(null), setAccountCode(c))} />
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        {toggle}
      </div>
    )
  }
  return (
    <form className="auth-step" onSubmit={submit} data-testid="auth-account">
      <p>{create ? t('sign.auth.noAccount', { email: info.email }) : t('sign.auth.signInLead', { email: info.email })}</p>
      {create && (
        <div className="auth-field">
          <label className="label" htmlFor={`${id}-name`}>{t('sign.auth.name')}</label>
          <input id={`${id}-name`} className="input" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
        </div>
      )}
      <div className="auth-field">
        <label className="label" htmlFor={`${id}-password`}>{create ? t('sign.auth.newPassword') : t('sign.auth.password', { email: info.email })}</label>
        <input
          id={`${id}-password`}
          className="input"
          type="password"
          autoComplete={create ? 'new-password' : 'current-password'}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          data-testid="auth-password"
        />
      </div>
      {!create && (info.account?.totp ?? true) && (
        <div className="auth-field">
          <label className="label" htmlFor={`${id}-totp`}>{t('sign.auth.totp')}</label>
          <input id={`${id}-totp`} className="input" inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} />
        </div>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="auth-buttons">
        <button type="submit" className="btn btn-primary" disabled={busy || !password} data-testid="auth-sign-in">
          {create ? t('sign.auth.createAccount') : t('sign.auth.signIn')}
        </button>
        {toggle}
      </div>
    </form>
  )
}

export function MethodTabs<M extends string>({ methods, current, onChange }: { methods: M[]; current: M; onChange: (m: M) => void }) {
  if (methods.length < 2) return null
  return (
    <div className="auth-methods" role="group" aria-label={t('sign.auth.orUse')}>
      {methods.map((m) => (
        <button key={m} type="button" className={`btn btn-small ${m === current ? 'btn-primary' : 'btn-secondary'}`} aria-pressed={m === current} onClick={() => onChange(m)}>
          {t(`sign.auth.method.${m}` as MessageKey)}
        </button>
      ))}
    </div>
  )
}
