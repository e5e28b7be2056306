import { useEffect, useRef, useState, type FormEvent } from 'react'
import type { InvitationPeek } from '../../../../shared/console-contract.js'
import { ApiFailure, consoleApi } from '../api.js'
import { ct, type ConsoleKey } from '../i18n/index.js'
import { ErrorAlert, Field, NewPasswordField, messageOf, useAction } from '../parts.js'

/** Where an invitation's link waits while its reader signs in first. */
export const PENDING_INVITATION = 'console.invitation'

/**
 * `/console/invitation#<link>`: what the invitation is, and accepting it: with a new account (the
 * link proved the address), or as the signed-in account of that address. The link leaves the
 * address bar at once and waits in this tab's sessionStorage until it is used.
 */
export function Invitation() {
  const [link] = useState(() => {
    const fromHash = location.hash.slice(1)
    if (fromHash) {
      sessionStorage.setItem(PENDING_INVITATION, fromHash)
      history.replaceState(null, '', location.pathname)
    }
    return fromHash || sessionStorage.getItem(PENDING_INVITATION) || ''
  })
  const [peek, setPeek] = useState<InvitationPeek | null>(null)
  const [signInFirst, setSignInFirst] = useState(false)
  const [name, setName] = useState('')
  const [password, setPassword] = useState('')
  const [loadError, setLoadError] = useState<string | null>(link ? null : ct('team.invitation.invalid'))
  const action = useAction()
  const heading = useRef<HTMLHeadingElement>(null)

  useEffect(() => {
    heading.current?.focus()
    if (!link) return
    consoleApi('/invitations/peek', { body: { link } }).then(setPeek, (err) => {
      sessionStorage.removeItem(PENDING_INVITATION)
      setLoadError(err instanceof ApiFailure && err.code === 'LINK_INVALID' ? ct('team.invitation.invalid') : messageOf(err))
    })
  }, [link])

  const accept = (e?: FormEvent) => {
    e?.preventDefault()
    void action.run(async () => {
      try {
        await consoleApi('/invitations/accept', { body: { link, ...(peek && !peek.accountExists && { name, password }) } })
      } catch (err) {
        if (err instanceof ApiFailure && err.code === 'SIGN_IN_FIRST') return setSignInFirst(true)
        throw err
      }
      sessionStorage.removeItem(PENDING_INVITATION)
      // The console starts again, signed in and in the team just joined.
      location.assign('/console/documents')
    })
  }

  return (
    <main className="console-auth" id="content">
      <section className="card card-pad stack" aria-labelledby="invitation-title">
        <h1 id="invitation-title" ref={heading} tabIndex={-1}>
          {peek ? ct('team.invitation.title', { team: peek.teamName }) : ct('team.invitation.titlePlain')}
        </h1>
        <ErrorAlert error={loadError ?? action.error} />
        {peek && (
          <>
            <p>{ct('team.invitation.body', { email: peek.email, role: ct(`team.role.${peek.role}` as ConsoleKey) })}</p>
            {signInFirst ? (
              <>
                <p className="alert" role="status">
                  {ct('team.invitation.signInFirst', { email: peek.email })}
                </p>
                <a className="btn btn-primary" href="/console">
                  {ct('signIn.submit')}
                </a>
              </>
            ) : peek.accountExists ? (
              <button className="btn btn-primary" type="button" onClick={() => accept()} disabled={action.busy}>
                {ct('team.invitation.accept')}
              </button>
            ) : (
              <form className="stack" onSubmit={accept}>
                <p className="muted">{ct('team.invitation.newAccount')}</p>
                <Field label={ct('team.invitation.name')} value={name} onChange={setName} autoComplete="name" required />
                <NewPasswordField label={ct('signIn.password')} value={password} onChange={setPassword} />
                <button className="btn btn-primary" type="submit" disabled={action.busy}>
                  {ct('team.invitation.join')}
                </button>
              </form>
            )}
          </>
        )}
      </section>
    </main>
  )
}
