/**
 * A passkey as the action's proof, the same on a recipient's page and for a direct link's visitor
 * (`to`: the address they gave, which the service binds every passkey step to). With no passkey on
 * this device, the person signs in to the account of the address (or makes it), adds one, uses it.
 */
import { useState } from 'react'
import { ApiError, type Api } from '../page/api.js'
import { t } from '../i18n/index.js'
import { GRANT_HEADER, messageOf, type ActionProof, type AuthInfo } from './auth-info.js'
import { AccountStep } from './AuthForms.js'

type WebAuthn = typeof import('@simplewebauthn/browser')
type Options<F extends (o: { optionsJSON: never }) => unknown> = Parameters<F>[0]['optionsJSON']

/** The browser's refusal when this device holds a passkey of the account already. */
const alreadyHere = (e: unknown) => (e instanceof ApiError && e.code === 'PASSKEY_EXISTS') || (e as { code?: string } | null)?.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED'

export function PasskeyStep(props: {
  api: Api
  info: AuthInfo
  to?: string | undefined
  /** Acts with the proof; throws what the service refused. */
  onProof: (proof: ActionProof) => Promise<void>
  setError: (message: string | null) => void
  /** Other proofs go in the same request: a refusal may be theirs, so it is not said as the passkey's. */
  withOthers?: boolean
}) {
  const { api, info, to, setError } = props
  const [signedIn, setSignedIn] = useState(info.signedIn)
  const [adding, setAdding] = useState(false)
  const [busy, setBusy] = useState(false)
  const body = to ? { email: to } : {}

  const refusal = (e: unknown) => {
    if (!(e instanceof ApiError)) return t('sign.auth.passkeyNotUsed')
    const said = messageOf(e)
    return e.code === 'AUTH_FAILED' && !props.withOthers ? t('sign.auth.passkeyRefused', { email: info.email }) : said
  }
  /** A ceremony; what goes wrong is said in the dialog. */
  const run = async (ceremony: (webauthn: WebAuthn) => Promise<void>) => {
    setBusy(true)
    setError(null)
    try {
      const webauthn = await import('@simplewebauthn/browser')
      if (!webauthn.browserSupportsWebAuthn()) return setError(t('sign.auth.passkeyUnsupported'))
      await ceremony(webauthn)
    } catch (e) {
      setError(refusal(e))
    } finally {
      setBusy(false)
    }
  }
  const use = async ({ startAuthentication }: WebAuthn) => {
    const { challengeId, options } = await api.post<{ challengeId: string; options: Options<typeof startAuthentication> }>('/auth/passkey', body)
    await props.onProof({ method: 'PASSKEY', passkey: { challengeId, response: await startAuthentication({ optionsJSON: options }) } })
  }
  const add = async (webauthn: WebAuthn) => {
    const { challengeId, options } = await api.post<{ challengeId: string; options: Options<typeof webauthn.startRegistration> }>('/auth/passkey/register', body)
    try {
      await api.post('/auth/passkey/register/finish', { ...body, challengeId, response: await webauthn.startRegistration({ optionsJSON: options }) })
    } catch (e) {
      if (!alreadyHere(e)) throw e
    }
    setAdding(false)
    await use(webauthn)
  }

  if (adding && !signedIn) return <AccountStep api={api} info={info} to={to} onGrant={(grant) => (api.setHeader(GRANT_HEADER, grant), setSignedIn(true))} />
  return (
    <div className="auth-step">
      <p>{t(adding ? 'sign.auth.passkeyAddLead' : 'sign.auth.passkeyLead', { email: info.email })}</p>
      <div className="auth-buttons">
        {adding ? (
          <button type="button" className="btn btn-primary" onClick={() => run(add)} disabled={busy} data-testid="auth-passkey-add">
            {t('sign.auth.passkeyAdd')}
          </button>
        ) : (
          <>
            <button type="button" className="btn btn-primary" onClick={() => run(use)} disabled={busy} data-testid="auth-passkey">
              {t('sign.auth.passkey')}
            </button>
            <button type="button" className="btn btn-secondary btn-small" onClick={() => (setAdding(true), setError(null))} data-testid="auth-passkey-none">
              {t('sign.auth.passkeyNone')}
            </button>
          </>
        )}
      </div>
    </div>
  )
}
