import { useEffect, useState } from 'react'

/** The console's routes are paths under /console; navigation is history.pushState, no reload. */
export function navigate(path: string, o: { replace?: boolean } = {}): void {
  if (o.replace) history.replaceState(null, '', path)
  else history.pushState(null, '', path)
  dispatchEvent(new PopStateEvent('popstate'))
}

export function usePath(): string {
  const [path, setPath] = useState(location.pathname)
  useEffect(() => {
    const on = () => setPath(location.pathname)
    addEventListener('popstate', on)
    // A screen may have moved on before this listened (children's effects run first): catch up.
    on()
    return () => removeEventListener('popstate', on)
  }, [])
  return path
}

/** The query string of the console's address (`location.search`), kept current across navigation and back/forward. */
export function useSearch(): URLSearchParams {
  const [search, setSearch] = useState(location.search)
  useEffect(() => {
    const on = () => setSearch(location.search)
    addEventListener('popstate', on)
    on()
    return () => removeEventListener('popstate', on)
  }, [])
  return new URLSearchParams(search)
}

/** A screen of the console: a path pattern (`:name` parameters) and what it shows. */
export interface ConsoleRoute {
  pattern: string
  /** Open routes show without a session (sign-in, sign-up, e-mailed links). */
  open?: boolean
  render: (params: Record<string, string>) => React.ReactNode
}

export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean)
  const got = path.split('/').filter(Boolean)
  if (want.length !== got.length) return null
  const params: Record<string, string> = {}
  for (const [i, part] of want.entries()) {
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(got[i]!)
    else if (part !== got[i]) return null
  }
  return params
}

/** A link that navigates inside the console. */
export function linkProps(href: string) {
  return {
    href,
    onClick: (e: React.MouseEvent) => {
      if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return
      e.preventDefault()
      navigate(href)
    },
  }
}
