import { useEffect, useRef, type ReactNode } from 'react'
import { ct, type ConsoleKey } from '../i18n/index.js'
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
  const all: [string, ConsoleKey][] = [
    ['/console', 'account.signInPassword'],
    ['/console/sign-up', 'account.signUpLink'],
    ['/console/reset', 'account.forgotLink'],
    ['/console/sign-in/link', 'account.emailLinkLink'],
  ]
  const ways = all.filter(([href]) => href !== (except ?? location.pathname))
  return (
    <nav className="account-ways small" aria-label={ct('account.waysIn')}>
      {ways.map(([href, key]) => (
        <a key={href} {...linkProps(href)}>
          {ct(key)}
        </a>
      ))}
    </nav>
  )
}

export { ErrorAlert, Field, NewPasswordField, Notice, mailLanguage, messageOf, useAction } from '../parts.js'
