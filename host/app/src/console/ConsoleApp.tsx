import { useCallback, useEffect, useMemo, useState } from 'react'
import { ApiFailure, consoleApi, onSignedOut, setCsrfToken } from './api.js'
import { accountRoutes, SecondFactorStep } from './account/routes.js'
import { documentRoutes } from './documents/routes.js'
import { teamRoutes } from './team/routes.js'
import { PENDING_INVITATION } from './team/Invitation.js'
import { CONSOLE_LANGUAGES, consoleLanguage, ct, loadConsoleLanguage, setConsoleLanguage, type ConsoleLanguage } from './i18n/index.js'
import { MeCtx, type Me } from './me.js'
import { linkProps, match, navigate, usePath, type ConsoleRoute } from './router.js'
import { SignIn } from './SignIn.js'

const ROUTES: ConsoleRoute[] = [...accountRoutes, ...teamRoutes, ...documentRoutes]

type State = { kind: 'loading' } | { kind: 'signed-out' } | { kind: 'second-factor' } | { kind: 'in'; me: Me } | { kind: 'failed'; message: string }

function find(path: string): { route: ConsoleRoute; params: Record<string, string> } | null {
  for (const route of ROUTES) {
    const params = match(route.pattern, path)
    if (params) return { route, params }
  }
  return null
}

export function ConsoleApp() {
  const path = usePath()
  const [state, setState] = useState<State>({ kind: 'loading' })
  const [, setLanguage] = useState<ConsoleLanguage>(consoleLanguage())

  const load = useCallback(async () => {
    try {
      const me = await consoleApi('/session')
      if ('signedIn' in me) return setState({ kind: 'signed-out' })
      if ('secondFactorDue' in me) return setState({ kind: 'second-factor' })
      setCsrfToken(me.csrfToken)
      setState({ kind: 'in', me })
      // An invitation opened before signing in is taken up again now.
      if (sessionStorage.getItem(PENDING_INVITATION) && location.pathname !== '/console/invitation') navigate('/console/invitation')
    } catch (err) {
      if (err instanceof ApiFailure && err.status === 401) setState({ kind: 'signed-out' })
      else setState({ kind: 'failed', message: err instanceof Error ? err.message : String(err) })
    }
  }, [])
  useEffect(() => void load(), [load])
  useEffect(() => onSignedOut(() => setState({ kind: 'signed-out' })), [])
  useEffect(() => {
    if (path === '/console' || path === '/console/') navigate('/console/documents', { replace: true })
  }, [path])

  const found = find(path)
  const ctx = useMemo(() => (state.kind === 'in' ? { me: state.me, reload: load } : null), [state, load])

  if (found?.route.open) return <>{found.route.render(found.params)}</>
  if (state.kind === 'loading') return <p className="console-loading">{ct('shell.loading')}</p>
  if (state.kind === 'failed') return <p className="alert alert-error">{ct('shell.error', { message: state.message })}</p>
  if (state.kind === 'second-factor' && SecondFactorStep) return <>{SecondFactorStep({ onDone: () => void load() })}</>
  if (state.kind !== 'in') return <SignIn onSignedIn={() => void load()} />

  const { me } = state
  const changeLanguage = (l: ConsoleLanguage) =>
    void loadConsoleLanguage(l).then(() => {
      setConsoleLanguage(l)
      setLanguage(l)
    })
  const switchTeam = async (teamId: string) => {
    await consoleApi('/teams/switch', { body: { teamId } })
    await load()
  }
  const signOut = async () => {
    await consoleApi('/auth/sign-out', { body: {} })
    setState({ kind: 'signed-out' })
    navigate('/console', { replace: true })
  }
  const section = path.split('/')[2] ?? ''
  const nav = [
    { href: '/console/documents', key: 'documents', label: ct('shell.documents') },
    { href: '/console/templates', key: 'templates', label: ct('shell.templates') },
    { href: '/console/settings', key: 'settings', label: ct('shell.settings') },
    { href: '/console/account', key: 'account', label: ct('shell.account') },
  ]

  return (
    <MeCtx.Provider value={ctx}>
      <a className="console-skip" href="#content">
        {ct('shell.skip')}
      </a>
      <header className="console-header">
        <a className="console-brand" {...linkProps('/console/documents')}>
          Envelope <span className="muted">{ct('shell.title')}</span>
        </a>
        <div className="console-header-tools">
          {me.teams.length > 1 ? (
            <label className="console-select">
              <span className="sr-only">{ct('shell.team')}</span>
              <select className="input" value={me.team?.teamId ?? ''} onChange={(e) => void switchTeam(e.target.value)}>
                {me.teams.map((t) => (
                  <option key={t.teamId} value={t.teamId}>
                    {t.teamName}
                  </option>
                ))}
              </select>
            </label>
          ) : (
            me.team && <span className="console-team-name">{me.team.teamName}</span>
          )}
          <label className="console-select">
            <span className="sr-only">{ct('shell.language')}</span>
            <select className="input" value={consoleLanguage()} onChange={(e) => changeLanguage(e.target.value as ConsoleLanguage)}>
              {CONSOLE_LANGUAGES.map((l) => (
                <option key={l} value={l}>
                  {l.toUpperCase()}
                </option>
              ))}
            </select>
          </label>
          <button className="btn btn-secondary btn-sm" type="button" onClick={() => void signOut()}>
            {ct('shell.signOut')}
          </button>
        </div>
      </header>
      <nav className="console-nav" aria-label={ct('shell.nav')}>
        {nav.map((n) => (
          <a key={n.key} {...linkProps(n.href)} aria-current={section === n.key ? 'page' : undefined}>
            {n.label}
          </a>
        ))}
      </nav>
      <main className="console-main" id="content" tabIndex={-1}>
        {!me.team && section !== 'account' ? (
          <p className="alert">{ct('shell.noTeam')}</p>
        ) : found ? (
          found.route.render(found.params)
        ) : (
          <p className="empty">{ct('shell.notFound')}</p>
        )}
      </main>
    </MeCtx.Provider>
  )
}
