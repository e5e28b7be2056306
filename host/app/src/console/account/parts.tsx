import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { ApiFailure } from '../api.js'
import { ct } from '../i18n/index.js'
import { linkProps } from '../router.js'

/** The card the screens before sign-in share: a title, its content and links to the other ways in. */
export function AuthCard({ id, title, children, links = true }: { id: string; title: string; children: ReactNode; links?: boolean }) {
  const heading = useRef<HTMLHeadingElement>(null)
  // Moving between these screens unmounts the link that was clicked: put focus on the new title
  // (unless a field took it), so keyboards and screen readers start at the top of the new screen.
  useEffect(() => {
    if (!document.activeElement || document.activeElement === document.body) heading.current?.focus()
  }, [id])
  return (
    <main className="console-auth" id="content">
      <section className="card card-pad stack" aria-labelledby={id}>
        <h1 id={id} ref={heading} tabIndex={-1}>
          {title}
        </h1>
        {children}
      </section>
      {links && <OtherWaysIn />}
    </main>
  )
}

/** Links to every way into an account, under the sign-in and sign-up cards. */
export function OtherWaysIn({ except }: { except?: string }) {
  const ways = [
    ['/console', 'account.signInPassword'],
    ['/console/sign-up', 'account.signUpLink'],
    ['/console/reset', 'account.forgotLink'],
    ['/console/sign-in/link', 'account.emailLinkLink'],
  ].filter(([href]) => href !== (except ?? location.pathname))
  return (
    <nav className="account-ways small" aria-label={ct('account.waysIn')}>
      {ways.map(([href, key]) => (
        <a key={href} {...linkProps(href!)}>
          {ct(key!)}
        </a>
      ))}
    </nav>
  )
}

export function ErrorAlert({ error }: { error: string | null }) {
  return error ? (
    <p className="alert alert-error" role="alert">
      {error}
    </p>
  ) : null
}

export function Notice({ children }: { children: ReactNode }) {
  return (
    <p className="alert" role="status">
      {children}
    </p>
  )
}

/** A failure's message: the console's own words for the codes it knows, else the server's. */
export function messageOf(err: unknown): string {
  if (err instanceof ApiFailure) {
    const key = `account.error.${err.code}`
    const own = ct(key)
    return own === key ? err.message : own
  }
  // The browser's WebAuthn dialog closed or refused: no need to show its technical text.
  if (err instanceof Error && (err.name === 'NotAllowedError' || err.name === 'AbortError')) return ct('account.error.passkeyCancelled')
  return err instanceof Error ? err.message : String(err)
}

/** Runs one action at a time: `busy` while it runs, its failure's message in `error`. */
export function useAction() {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const run = useCallback(async (action: () => Promise<void>) => {
    setBusy(true)
    setError(null)
    try {
      await action()
    } catch (err) {
      setError(messageOf(err))
    } finally {
      setBusy(false)
    }
  }, [])
  return { busy, error, setError, run }
}

/** A labelled input; its hint (outside the label, so not part of the name) describes it. */
export function Field(props: {
  label: string
  type?: string
  value: string
  onChange: (v: string) => void
  autoComplete?: string
  required?: boolean
  hint?: string
  inputMode?: 'numeric' | 'text'
  autoFocus?: boolean
  minLength?: number
  readOnly?: boolean
}) {
  const id = useId()
  return (
    <div className="form-field">
      <label className="label" htmlFor={id}>
        {props.label}
      </label>
      <input
        id={id}
        className="input"
        type={props.type ?? 'text'}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        autoComplete={props.autoComplete}
        required={props.required}
        inputMode={props.inputMode}
        autoFocus={props.autoFocus}
        minLength={props.minLength}
        readOnly={props.readOnly}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
      />
      {props.hint && (
        <span className="muted small" id={`${id}-hint`}>
          {props.hint}
        </span>
      )}
    </div>
  )
}

/** The console's language as the mail job names it. */
export { consoleLanguage as mailLanguage } from '../i18n/index.js'
