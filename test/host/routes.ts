import { createApp } from '../../host/server/app.js'
import { configFromEnv } from '../../host/server/config.js'

/** One route the host serves: method and Hono path (`/api/v2/envelope/:id{envelope_[a-z0-9]+}`). */
export interface ServedRoute {
  method: string
  path: string
}

/**
 * Every concrete route the host's app serves, read from its router (not from a list kept by hand),
 * so a new route shows up in every suite that walks them. Middleware (`ALL`) is left out, and
 * wildcard routes (`/embed/assets/*`) unless asked for; the `/api/v2-beta` alias is left out unless asked for (it is the same
 * router as `/api/v2`). The app is built without a database: routes are registered, not run.
 */
export function servedRoutes(opts: { beta?: boolean; mailbox?: boolean; admin?: boolean; wildcards?: boolean } = {}): ServedRoute[] {
  const app = registered(opts)
  const seen = new Set<string>()
  const out: ServedRoute[] = []
  for (const r of app.routes) {
    if (r.method === 'ALL' || (r.path.endsWith('*') && !opts.wildcards)) continue
    if (!opts.beta && r.path.startsWith('/api/v2-beta/')) continue
    const key = `${r.method} ${r.path}`
    if (seen.has(key)) continue
    seen.add(key)
    out.push({ method: r.method, path: r.path })
  }
  return out
}

function registered(opts: { mailbox?: boolean; admin?: boolean }) {
  return createApp({
    db: {} as never,
    config: configFromEnv({}),
    mailbox: opts.mailbox ?? true,
    adminSecret: opts.admin === false ? null : 'routes',
  } as never)
}

/**
 * The source text of each concrete route's handlers (`METHOD path` -> text; `/api/v2-beta` left
 * out), for suites that find the routes calling an operation: a new route calling it shows up.
 */
export function routeHandlerSources(): Map<string, string> {
  const out = new Map<string, string>()
  for (const r of registered({}).routes) {
    if (r.method === 'ALL' || r.path.startsWith('/api/v2-beta/')) continue
    const key = `${r.method} ${r.path}`
    out.set(key, (out.get(key) ?? '') + String(r.handler))
  }
  return out
}

/** `/envelope/:id{envelope_[a-z0-9]+}` -> `/envelope/{}`: a route's shape, whatever its parameters are called. */
export const routeShape = (p: string) => p.replace(/\/:\w+(\{[^/]*\})?/g, '/{}')

/** The names of a route's path parameters, in order. */
export const routeParams = (p: string) => [...p.matchAll(/\/:(\w+)/g)].map((m) => m[1]!)

/** The route's path with each parameter replaced by `fill(name, index)` (already encoded by the caller). */
export function fillRoute(p: string, fill: (name: string, index: number) => string): string {
  let i = 0
  return p.replace(/\/:(\w+)(\{[^/]*\})?/g, (_, name: string) => `/${fill(name, i++)}`)
}
