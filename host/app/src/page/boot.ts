import { DIRECT_ROUTES, EMBED_ROUTES, MULTISIGN_ROUTE, SIGN_ROUTES, decodeOptions, type EmbedOptions, type EmbedRoute, type SignOptions } from '../../../../src/protocol/index.js'
import { parseFeatures } from './features.js'

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

/** The options both kinds of page read: white label, language and the parent's origin. */
const COMMON_STRING_KEYS = ['css', 'language', 'parentOrigin'] as const
const COMMON_BOOLEAN_KEYS = ['darkModeDisabled'] as const

/** Decodes the hash; anything that is not an encoded JSON object is INVALID_OPTIONS. */
function decodeHash(hash: string): Record<string, unknown> {
  try {
    return decodeOptions(hash)
  } catch {
    throw new LaunchError('INVALID_OPTIONS', 'the options in the URL hash cannot be decoded')
  }
}

const bad = (key: string): never => {
  throw new LaunchError('INVALID_OPTIONS', `option "${key}" has the wrong type`)
}

/** Copies the listed keys of one primitive type from raw to out; null and undefined are absent. */
function copyTyped<T extends object>(raw: Record<string, unknown>, out: T, keys: readonly string[], type: 'string' | 'boolean'): void {
  for (const key of keys) {
    if (raw[key] === undefined || raw[key] === null) continue
    if (typeof raw[key] !== type) bad(key)
    ;(out as Record<string, unknown>)[key] = raw[key]
  }
}

/** The options every page kind shares (css, cssVars, darkModeDisabled, language, parentOrigin). */
function parseCommon(raw: Record<string, unknown>, extraStrings: readonly string[], extraBooleans: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  copyTyped(raw, out, [...COMMON_STRING_KEYS, ...extraStrings], 'string')
  copyTyped(raw, out, [...COMMON_BOOLEAN_KEYS, ...extraBooleans], 'boolean')
  if (raw.cssVars !== undefined && raw.cssVars !== null) {
    if (typeof raw.cssVars !== 'object' || Array.isArray(raw.cssVars)) bad('cssVars')
    const vars: Record<string, string> = {}
    for (const [key, value] of Object.entries(raw.cssVars as Record<string, unknown>)) {
      if (typeof value !== 'string' && typeof value !== 'number') bad(`cssVars.${key}`)
      if (!/^[a-zA-Z][\w-]*$/.test(key)) bad(`cssVars.${key}`)
      vars[key] = String(value)
    }
    out.cssVars = vars
  }
  if (out.parentOrigin !== undefined && !isOrigin(out.parentOrigin as string)) bad('parentOrigin')
  return out
}

/** Decodes and type-checks the hash options; unknown keys are ignored, wrong types rejected. */
export function parseOptions(hash: string): EmbedOptions {
  const raw = decodeHash(hash)
  const out = parseCommon(raw, ['externalId'], ['onlyEditFields']) as EmbedOptions
  if (raw.type !== undefined && raw.type !== null) {
    if (raw.type !== 'DOCUMENT' && raw.type !== 'TEMPLATE') bad('type')
    out.type = raw.type as 'DOCUMENT' | 'TEMPLATE'
  }
  // Flat toggles and the nested groups of the deployed envelope components (features.ts).
  if (raw.features !== undefined && raw.features !== null) out.features = parseFeatures(raw.features, bad)
  return out
}

// ---- the signing pages -------------------------------------------------------------------

/** What the signing page learns from its URL: the recipient's (or direct link's) token is the path's last part. */
export interface SignLaunch {
  /** `/embed/sign/…` (in a customer's iframe: it talks to its parent) or `/sign/…` (standalone). */
  embedded: boolean
  /** A template's direct link (`/d/…`, `/embed/direct/…`): the token is the link's. */
  direct: boolean
  token: string
  options: SignOptions
  /** The direct link embed's `?externalId=`, for the document it makes. */
  externalId?: string
  /** The multi-sign embed's recipient tokens, one per document (`token` is the first). */
  tokens?: string[]
}

/** The most documents one multi-sign frame takes. */
export const MULTISIGN_MAX = 50

const SIGN_PATTERNS = [SIGN_ROUTES, DIRECT_ROUTES].flatMap((routes) =>
  (Object.entries(routes) as ['page' | 'embed', string][]).map(([kind, path]) => ({
    embedded: kind === 'embed',
    direct: routes === DIRECT_ROUTES,
    re: new RegExp('^' + path.replace(':token', '([^/]+)') + '/?$'),
  })),
)

/** The multi-sign embed (its tokens are in the query). */
export const isMultiSign = (pathname: string) => pathname.replace(/\/+$/, '') === MULTISIGN_ROUTE

/** The signing route of a path, or null for any other page. */
export function matchSignRoute(pathname: string): { embedded: boolean; direct: boolean; token: string } | null {
  for (const { embedded, direct, re } of SIGN_PATTERNS) {
    const m = re.exec(pathname)
    if (!m) continue
    try {
      return { embedded, direct, token: decodeURIComponent(m[1]!) }
    } catch {
      return null
    }
  }
  return null
}

/**
 * Reads the signing route and its options. Only the embed reads options: the standalone page
 * is opened from an e-mail, where a hash can only be someone else's.
 */
export function readSignLaunch(loc: Pick<Location, 'pathname' | 'hash' | 'search'> = location): SignLaunch {
  if (isMultiSign(loc.pathname)) {
    const tokens = [...new Set(new URLSearchParams(loc.search).getAll('token').filter(Boolean))]
    if (!tokens.length || tokens.length > MULTISIGN_MAX) throw new LaunchError('NOT_FOUND', `the multi-sign page takes 1 to ${MULTISIGN_MAX} tokens`)
    return { embedded: true, direct: false, token: tokens[0]!, tokens, options: parseSignOptions(loc.hash) }
  }
  const match = matchSignRoute(loc.pathname)
  if (!match) throw new LaunchError('NOT_FOUND', `no signing page at this address`)
  const externalId = match.direct && match.embedded ? new URLSearchParams(loc.search).get('externalId')?.slice(0, 255) : undefined
  return { ...match, options: match.embedded ? parseSignOptions(loc.hash) : {}, ...(externalId ? { externalId } : {}) }
}

/** The signing embed's options (SignOptions), checked as strictly as the authoring ones. */
export function parseSignOptions(hash: string): SignOptions {
  return parseCommon(decodeHash(hash), ['name', 'email'], ['lockName', 'lockEmail', 'allowDocumentRejection']) as SignOptions
}

function isOrigin(value: string): boolean {
  try {
    return new URL(value).origin === value
  } catch {
    return false
  }
}
