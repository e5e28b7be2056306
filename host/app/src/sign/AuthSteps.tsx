/**
 * The recipient's authentication steps (host/server/api/signing-auth.ts): the access gate shown
 * before the document, and the proof asked for when signing, approving or rejecting. A passed
 * check gives a grant the page keeps in memory and sends as a header: no cookie, so it works in
 * a customer's frame where the browser blocks third-party cookies.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { ApiError, type Api } from '../api.js'
import { post } from '../bridge.js'
import { t, type MessageKey } from '../i18n/index.js'
import { Dialog } from './Dialog.js'
import { Screen } from './Screens.js'

export interface AuthInfo {
  access: { required: ('ACCOUNT' | 'TWO_FACTOR_AUTH')[]; satisfied: boolean }
  action: { required: ('ACCOUNT' | 'PASSKEY' | 'TWO_FACTOR_AUTH' | 'PASSWORD')[] }
  signedIn: boolean
  email: string
  language: string
  /** Told only once the page proved the address (a code, or the account's sign-in); null before. */
  account: { exists: boolean; password: boolean; totp: boolean; passkeys: boolean } | null
}

export type ActionProof =
  | { method: 'PASSWORD'; password: string }
  | { method: 'TWO_FACTOR_AUTH'; code: string }
  | { method: 'ACCOUNT' }
  | { method: 'PASSKEY'; passkey: { challengeId: string; response: unknown } }

export const GRANT_HEADER = 'X-Recipient-Auth'
export const loadAuthInfo = (api: Api) => api.get<AuthInfo>('/auth')

/** The embedding page hears of each step once (`onAuthRequired`) and of each refusal (`onAuthFailed`). */
function useAnnounce(step: 'access' | 'action') {
  const said = useRef(false)
  useEffect(() => {
    if (!said.current) post({ action: 'auth-required', data: step })
    said.current = true
  }, [step])
}
/** A refusal of what the recipient typed (wrong, expired, locked): told where they typed it. */
export const isAuthFailure = (e: unknown): e is ApiError => e instanceof ApiError && (e.status === 401 || e.status === 429 || e.code === 'CODE_EXPIRED')
export const announceFailure = (e: unknown) => {
  if (isAuthFailure(e)) post({ action: 'auth-failed', data: e.code })
}

/** Runs `act` with the proofs the recipient gives when signing (at once when none is asked); false when they closed the dialog. */
export type Prove = (act: (proofs: object | undefined) => Promise<void>, email?: string) => Promise<boolean>

/** A refusal in the steps' words. */
function messageOf(e: unknown): string {
  if (!(e instanceof ApiError)) return t('sign.auth.error', { message: String(e) })
  announceFailure(e)
  if (e.code === 'AUTH_FAILED') return t('sign.auth.failed')
  if (e.code === 'CODE_EXPIRED') return t('sign.auth.expired')
  if (e.status === 429) return t('sign.auth.locked', { message: e.message })
  return t('sign.auth.error', { message: e.message })
}

/** Sends a code by e-mail (to `to`, a direct link visitor's address), then takes it (or one from the account's authenticator app). */
function CodeStep({ api, info, purpose, onCode, to, lead, wasSent = false }: { api: Api; info: AuthInfo; purpose: 'access' | 'action' | 'account'; onCode: (code: string) => Promise<void>; to?: string; lead?: string; wasSent?: boolean }) {
  const [sent, setSent] = useState(wasSent)
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const id = useId()
  // An authenticator app is spoken of (and its code taken before any e-mail) only once the page
  // knows the account has one; before, the words are about the code we e-mail.
  const appCode = purpose !== 'account' && info.account?.totp === true
  const send = async () => {
    setBusy(true)
    setError(null)
    try {
      await api.post('/auth/code', { purpose, ...(to ? { email: to } : {}) })
      setSent(true)
    } catch (e) {
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
        <button type="button" className={`btn ${sent ? 'btn-secondary' : 'btn-primary'}`} disabled={busy} onClick={send} data-testid="auth-send-code">
          {sent ? t('sign.auth.resend') : t('sign.auth.sendCode')}
        </button>
      </div>
    </form>
  )
}

/**
 * Signs in with the recipient's account (password, and its authenticator code when it may have
 * one), or makes the account: a code e-mailed to the address first, then the name and password.
 */
function AccountStep({ api, info, onGrant, createOnly, to }: { api: Api; info: AuthInfo; onGrant: (grant: string, password: string) => void | Promise<void>; createOnly?: boolean; to?: string }) {
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
      // A direct link's visitor gets no grant: they prove the link's methods with the new password.
      const { grant = '' } = create
        ? await api.post<{ grant?: string }>('/auth/account', { name: name.trim() || undefined, password, code: accountCode, ...(to ? { email: to } : {}) })
        : await api.post<{ grant: string }>('/auth/access', { method: 'ACCOUNT', password, ...(code.trim() ? { code: code.trim() } : {}) })
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

function MethodTabs<M extends string>({ methods, current, onChange }: { methods: M[]; current: M; onChange: (m: M) => void }) {
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
  const passkey = async () => {
    setError(null)
    try {
      const { startAuthentication, browserSupportsWebAuthn } = await import('@simplewebauthn/browser')
      if (!browserSupportsWebAuthn()) return setError(t('sign.auth.passkeyUnsupported'))
      const { challengeId, options } = await api.post<{ challengeId: string; options: Parameters<typeof startAuthentication>[0]['optionsJSON'] }>('/auth/passkey', {})
      const response = await startAuthentication({ optionsJSON: options })
      await act({ method: 'PASSKEY', passkey: { challengeId, response } })
    } catch (e) {
      setError(e instanceof ApiError ? messageOf(e) : t('sign.auth.passkeyUnsupported'))
    }
  }
  const granted = (grant: string) => api.setHeader(GRANT_HEADER, grant)
  // No passkey on this device: signed in to the account on this page, the recipient adds one, then uses it.
  const [signedIn, setSignedIn] = useState(info.signedIn)
  const [adding, setAdding] = useState(false)
  const addPasskey = async () => {
    setError(null)
    try {
      const { startRegistration, browserSupportsWebAuthn } = await import('@simplewebauthn/browser')
      if (!browserSupportsWebAuthn()) return setError(t('sign.auth.passkeyUnsupported'))
      const { challengeId, options } = await api.post<{ challengeId: string; options: Parameters<typeof startRegistration>[0]['optionsJSON'] }>('/auth/passkey/register', {})
      await api.post('/auth/passkey/register/finish', { challengeId, response: await startRegistration({ optionsJSON: options }) })
      setAdding(false)
      await passkey()
    } catch (e) {
      setError(e instanceof ApiError ? messageOf(e) : t('sign.auth.passkeyUnsupported'))
    }
  }

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
      {method === 'PASSKEY' &&
        (adding && !signedIn ? (
          <AccountStep api={api} info={info} onGrant={(grant) => (granted(grant), setSignedIn(true))} />
        ) : (
          <div className="auth-buttons">
            {adding ? (
              <button type="button" className="btn btn-primary" onClick={addPasskey} disabled={busy} data-testid="auth-passkey-add">
                {t('sign.auth.passkeyAdd')}
              </button>
            ) : (
              <>
                <button type="button" className="btn btn-primary" onClick={passkey} disabled={busy} data-testid="auth-passkey">
                  {t('sign.auth.passkey')}
                </button>
                <button type="button" className="btn btn-secondary btn-small" onClick={() => (setAdding(true), setError(null))} data-testid="auth-passkey-none">
                  {t('sign.auth.passkeyNone')}
                </button>
              </>
            )}
          </div>
        ))}
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert" data-testid="auth-error">
          {error}
        </p>
      )}
    </Dialog>
  )
}

/** What a direct link's visitor must prove, from `/api/signing/direct/auth`. */
export interface DirectAuthInfo {
  access: { required: AuthInfo['access']['required'] }
  action: { required: AuthInfo['action']['required'] }
  language: string
}
export type AccessProof = { method: 'TWO_FACTOR_AUTH'; code: string } | { method: 'ACCOUNT'; password: string; code?: string }

/** The action method a direct link still needs after `access` (the service counts one proof for both where they match). */
export function directActionStep(info: DirectAuthInfo): 'PASSWORD' | 'TWO_FACTOR_AUTH' | 'NONE' | 'UNSUPPORTED' {
  const access = info.access.required[0]
  const action = info.action.required
  if (!action.length) return 'NONE'
  if ((access === 'TWO_FACTOR_AUTH' && action.includes('TWO_FACTOR_AUTH')) || (access === 'ACCOUNT' && (action.includes('ACCOUNT') || action.includes('PASSWORD')))) return 'NONE'
  if (action.includes('TWO_FACTOR_AUTH')) return 'TWO_FACTOR_AUTH'
  if (action.includes('PASSWORD')) return 'PASSWORD'
  return 'UNSUPPORTED'
}

/**
 * A direct link's visitor, as they sign: the link recipient's access check and action, proved for
 * the address they gave; resolves with both proofs for the complete request.
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
  const view: AuthInfo = { access: { required: info.access.required, satisfied: false }, action: info.action, signedIn: false, email, language: info.language, account: null }
  const [error, setError] = useState<string | null>(null)
  // A visitor with no account for their address makes one here, then goes on with its password.
  const [making, setMaking] = useState(false)
  const made = (_grant: string, pw: string) => {
    setMaking(false)
    if (access === null) accessDone({ method: 'ACCOUNT', password: pw })
    else void finish(access, { method: 'PASSWORD', password: pw })
  }
  const makeToggle = (
    <button type="button" className="btn btn-secondary btn-small" onClick={() => (setMaking(true), setError(null))} data-testid="auth-toggle-account">
      {t('sign.auth.wantAccount')}
    </button>
  )
  // A refusal shows here; the dialog starts over from the access step (a code is spent once checked).
  const finish = async (a: AccessProof | null, auth?: ActionProof) => {
    setError(null)
    try {
      await props.onProofs({ ...(a && 'method' in a ? { access: a } : {}), ...(auth ? { auth } : {}) })
    } catch (e) {
      setError(messageOf(e))
      if (info.access.required.length) setAccess(null)
    }
  }
  const accessDone = (a: AccessProof) => {
    setAccess(a)
    if (step === 'NONE') void finish(a)
  }
  return (
    <Dialog title={t('sign.auth.actionTitle')} description={t('sign.auth.actionLead')} onClose={props.onClose} testId="auth-action" footer={<button type="button" className="btn btn-secondary" onClick={props.onClose}>{t('sign.auth.cancel')}</button>}>
      {step === 'UNSUPPORTED' ? (
        <p role="alert">{t('sign.auth.passkeyUnsupported')}</p>
      ) : making ? (
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
