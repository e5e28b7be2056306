import { useEffect, useRef, type ReactNode } from 'react'
import { ct, type ConsoleKey } from '../i18n/index.js'
import { atLeast, useMe, type Role } from '../me.js'
import { linkProps } from '../router.js'

/** The settings' sections, with the role each needs to be shown. */
const SECTIONS: { path: string; key: ConsoleKey; role: Role }[] = [
  { path: '/console/settings', key: 'team.nav.general', role: 'MEMBER' },
  { path: '/console/settings/members', key: 'team.nav.members', role: 'MEMBER' },
  { path: '/console/settings/branding', key: 'branding.nav', role: 'MEMBER' },
  { path: '/console/settings/tokens', key: 'team.nav.tokens', role: 'MANAGER' },
  { path: '/console/settings/webhooks', key: 'team.nav.webhooks', role: 'MANAGER' },
  { path: '/console/settings/activity', key: 'team.nav.activity', role: 'MANAGER' },
]

/** A settings screen: the sub-navigation, then the section; its title takes the focus when it opens. */
export function SettingsLayout({ title, children }: { title: string; children: ReactNode }) {
  const { me } = useMe()
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [title])
  return (
    <div className="team-settings">
      <nav className="team-subnav" aria-label={ct('team.nav.label')}>
        {SECTIONS.filter((s) => atLeast(me.team?.role, s.role)).map((s) => (
          <a key={s.path} {...linkProps(s.path)} aria-current={location.pathname === s.path ? 'page' : undefined}>
            {ct(s.key)}
          </a>
        ))}
      </nav>
      <div className="team-section stack">
        <h1 ref={heading} tabIndex={-1}>
          {title}
        </h1>
        {children}
      </div>
    </div>
  )
}

/** Shown instead of a section the member's role does not open. */
export function NeedsRole({ role }: { role: Role }) {
  return <p className="alert">{ct('team.needsRole', { role: ct(`team.role.${role}`) })}</p>
}
