import { EMBED_ROUTES, FEATURE_KEYS, decodeOptions, type EmbedOptions, type EmbedRoute } from '../../../src/protocol/index.js'

/** What the page learns from its own URL before talking to anyone. */
export interface Launch {
  route: EmbedRoute
  /** The `:id` of edit routes: an envelope id (v2) or a legacy numeric id (v1). */
  id: string | null
  token: string | null
  options: EmbedOptions
}

export class LaunchError extends Error {
  constructor(
    readonly code: 'NOT_FOUND' | 'INVALID_OPTIONS' | 'INVALID_TOKEN',
    message: string,
  ) {
    super(message)
  }
}

const PATTERNS = (Object.entries(EMBED_ROUTES) as [EmbedRoute, string][]).map(([route, path]) => ({
  route,
  re: new RegExp('^' + path.replace(':id', '([^/]+)') + '/?$'),
}))

export function matchRoute(pathname: string): { route: EmbedRoute; id: string | null } | null {
  for (const { route, re } of PATTERNS) {
    const m = re.exec(pathname)
    if (m) return { route, id: m[1] ? decodeURIComponent(m[1]) : null }
  }
  return null
}

export const isEditRoute = (route: EmbedRoute) => route.endsWith('.edit')
export const isLegacyRoute = (route: EmbedRoute) => !route.startsWith('envelope.')

/**
 * Reads the route, the token and the options, and removes the token from the address bar
 * at once so that it never lingers in history, screenshots or referrers.
 */
export function readLaunch(loc: Location = location, history: History = window.history): Launch {
  const params = new URLSearchParams(loc.search)
  const token = params.get('token')
  if (params.has('token')) {
    params.delete('token')
    const rest = params.toString()
    history.replaceState(history.state, '', loc.pathname + (rest ? '?' + rest : '') + loc.hash)
  }
  const match = matchRoute(loc.pathname)
  if (!match) throw new LaunchError('NOT_FOUND', `no authoring page at ${loc.pathname}`)
  return { ...match, token, options: parseOptions(loc.hash) }
}

const STRING_KEYS = ['externalId', 'css', 'language', 'parentOrigin'] as const
const BOOLEAN_KEYS = ['darkModeDisabled', 'onlyEditFields'] as const

/** Decodes and type-checks the hash options; unknown keys are ignored, wrong types rejected. */
export function parseOptions(hash: string): EmbedOptions {
  let raw: Record<string, unknown>
  try {
    raw = decodeOptions(hash)
  } catch {
    throw new LaunchError('INVALID_OPTIONS', 'the options in the URL hash cannot be decoded')
  }
  const bad = (key: string): never => {
    throw new LaunchError('INVALID_OPTIONS', `option "${key}" has the wrong type`)
  }
  const out: EmbedOptions = {}
  for (const key of STRING_KEYS) {
    if (raw[key] === undefined || raw[key] === null) continue
    if (typeof raw[key] !== 'string') bad(key)
    out[key] = raw[key] as string
  }
  for (const key of BOOLEAN_KEYS) {
    if (raw[key] === undefined || raw[key] === null) continue
    if (typeof raw[key] !== 'boolean') bad(key)
    out[key] = raw[key] as boolean
  }
  if (raw.type !== undefined && raw.type !== null) {
    if (raw.type !== 'DOCUMENT' && raw.type !== 'TEMPLATE') bad('type')
    out.type = raw.type as 'DOCUMENT' | 'TEMPLATE'
  }
  if (raw.features !== undefined && raw.features !== null) {
    if (typeof raw.features !== 'object' || Array.isArray(raw.features)) bad('features')
    const f = raw.features as Record<string, unknown>
    out.features = {}
    for (const key of FEATURE_KEYS) {
      if (f[key] === undefined || f[key] === null) continue
      if (typeof f[key] !== 'boolean') bad(`features.${key}`)
      out.features[key] = f[key] as boolean
    }
  }
  if (raw.cssVars !== undefined && raw.cssVars !== null) {
    if (typeof raw.cssVars !== 'object' || Array.isArray(raw.cssVars)) bad('cssVars')
    out.cssVars = {}
    for (const [key, value] of Object.entries(raw.cssVars as Record<string, unknown>)) {
      if (typeof value !== 'string' && typeof value !== 'number') bad(`cssVars.${key}`)
      if (!/^[a-zA-Z][\w-]*$/.test(key)) bad(`cssVars.${key}`)
      out.cssVars[key] = String(value)
    }
  }
  if (out.parentOrigin !== undefined && !isOrigin(out.parentOrigin)) bad('parentOrigin')
  return out
}

function isOrigin(value: string): boolean {
  try {
    return new URL(value).origin === value
  } catch {
    return false
  }
}
