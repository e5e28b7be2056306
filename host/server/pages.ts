import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { Hono, type Context } from 'hono'
import { DIRECT_ROUTES, EMBED_ROUTES, MULTISIGN_ROUTE, SIGN_ROUTES } from '../../src/protocol/index.js'
import type { HostContext } from './api/http.js'
import { authenticate } from './auth/principal.js'
import { tokenOrNull } from './api/schemas.js'
import { verifyPresignToken } from './auth/presign.js'
import { sessionAnswer } from './api/embedding.js'
import { frameAncestors, teamEmbedding } from './domain/teams.js'

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
}

const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  // The token is in the page's query string (authoring) or path (signing): never let it leave
  // in a Referer, never cache the page.
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
}

/**
 * The standalone signing pages (`/sign/{token}`, the link in the recipient's e-mail, and a
 * template's direct link `/d/{token}`) are never framed: a page that signs must not be dressed up
 * by someone else's. Their embeddable twins are `/embed/sign/{token}` and `/embed/direct/{token}`.
 */
const STANDALONE_SIGN_HEADERS = { ...PAGE_HEADERS, 'Content-Security-Policy': "frame-ancestors 'none'", 'X-Frame-Options': 'DENY' }

/**
 * /verify, the public page that checks a PDF's seal: never framed, and only this host's own built
 * script, styles and API (the file goes to POST /api/v2/verify).
 */
const VERIFY_HEADERS = {
  ...PAGE_HEADERS,
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
}

const NOT_BUILT = { message: 'authoring pages are not built: run npm run build:app', code: 'APP_NOT_BUILT' }

/** The team whose page this is, from the credential in its address; null when it names none. */
type TeamOf = (c: Context) => Promise<string | null | { teamId: string; session: object }>

/** The page with a tag added at the end of its head (unchanged without one). */
function beforeHeadEnd(html: Buffer<ArrayBuffer>, tag: string): Buffer<ArrayBuffer> {
  const at = html.indexOf('</head>')
  return at < 0 ? html : Buffer.concat([html.subarray(0, at), Buffer.from(tag), html.subarray(at)])
}

/** JSON inside a <script> element: nothing in it can close the element. */
const scriptJson = (value: object) => JSON.stringify(value).replace(/</g, '\\u003c')

/**
 * The pages (one index.html for every authoring and signing route: the app picks the page
 * from the path) and their hashed assets. The recipient token in a signing path is a
 * credential: nothing here logs paths. An embeddable page of a team that lists the origins
 * allowed to embed it says so in `Content-Security-Policy: frame-ancestors`, so browsers refuse
 * every other parent.
 */
export function pageRoutes(ctx: HostContext) {
  const r = new Hono()
  const distDir = ctx.config.appDistDir
  const assetsDir = path.join(distDir, 'assets')

  // A value that cannot be a token names no team (and never reaches the database).
  const teamWhere = (sql: string) => async (token: string | undefined) =>
    tokenOrNull(token) ? ((await ctx.db.query<{ team_id: string }>(sql, [token]))[0]?.team_id ?? null) : null
  const byRecipient = teamWhere('select e.team_id from recipients r join envelopes e on e.id = r.envelope_id where r.token = $1')
  const byDirectLink = teamWhere('select e.team_id from template_direct_links l join envelopes e on e.id = l.envelope_id where l.token = $1')
  // The authoring page's token is checked as the API checks it (signature, expiry, the minting
  // API token alive, the plan), and its answer to GET /embedding/session travels in the page,
  // saving the page that round trip. Only for a team without an origin list: with one, the page
  // asks itself, naming the parent the browser reports, and the API refuses a parent not listed.
  const byPresign: TeamOf = async (c) => {
    const token = c.req.query('token')
    if (!token) return null
    const p = await authenticate(ctx, `Bearer ${token}`).catch(() => null)
    // Refused (revoked, plan): the page shows the API's refusal, still under its team's frame-ancestors.
    if (p?.kind !== 'presign') return verifyPresignToken(ctx.presignSecret, token).then((claims) => claims.teamId, () => null)
    return (await teamEmbedding(ctx.db, ctx.cache.teams, p.teamId)).origins ? p.teamId : { teamId: p.teamId, session: sessionAnswer(p) }
  }

  /**
   * The signing pages load their chunk only once the first one has run: name it in the page
   * (`<link rel=modulepreload>`, from Vite's manifest) so both download and compile together.
   */
  // The manifest changes only with index.html (one build writes both): read it again only then.
  let preloaded: { from: Buffer; page: Buffer<ArrayBuffer> } | null = null
  const signPreload = async (html: Buffer<ArrayBuffer>): Promise<Buffer<ArrayBuffer>> => {
    if (preloaded?.from.equals(html)) return preloaded.page
    const page = await withPreload(html)
    preloaded = { from: html, page }
    return page
  }
  const withPreload = async (html: Buffer<ArrayBuffer>): Promise<Buffer<ArrayBuffer>> => {
    try {
      const manifest = JSON.parse(await readFile(path.join(distDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, { file?: string }>
      const file = manifest['src/sign/index.tsx']?.file
      return file && /^assets\/[\w.-]+\.js$/.test(file) ? beforeHeadEnd(html, `<link rel="modulepreload" crossorigin href="/embed/${file}">`) : html
    } catch {
      return html // no manifest: the page still loads its chunk itself
    }
  }

  const serve = (headers: Record<string, string>, teamOf?: TeamOf, signing = false) => async (c: Context) => {
    let html: Buffer<ArrayBuffer>
    try {
      html = await readFile(path.join(distDir, 'index.html'))
    } catch {
      return Response.json(NOT_BUILT, { status: 503, headers: { 'Cache-Control': 'no-store' } })
    }
    if (signing) html = await signPreload(html)
    const team = teamOf && (await teamOf(c))
    const teamId = typeof team === 'object' && team ? team.teamId : team
    const csp = teamId ? frameAncestors(await teamEmbedding(ctx.db, ctx.cache.teams, teamId)) : null
    // Same-origin, never cached (no-store): what is inlined is what the token in the URL already says.
    const body = typeof team === 'object' && team ? inline(html, team.session) : html
    return new Response(body, { headers: csp ? { ...headers, 'Content-Security-Policy': csp } : headers })
  }
  const inline = (html: Buffer<ArrayBuffer>, session: object) => beforeHeadEnd(html, `<script type="application/json" id="embed-session">${scriptJson(session)}</script>`)
  const authoring = serve(PAGE_HEADERS, byPresign)
  for (const route of Object.values(EMBED_ROUTES)) r.get(route, authoring)
  r.get(MULTISIGN_ROUTE, serve(PAGE_HEADERS, (c) => byRecipient(c.req.query('token')), true))
  r.get(SIGN_ROUTES.embed, serve(PAGE_HEADERS, (c) => byRecipient(c.req.param('token')), true))
  r.get(DIRECT_ROUTES.embed, serve(PAGE_HEADERS, (c) => byDirectLink(c.req.param('token')), true))
  const standalone = serve(STANDALONE_SIGN_HEADERS, undefined, true)
  r.get(SIGN_ROUTES.page, standalone)
  r.get(DIRECT_ROUTES.page, standalone)
  r.get('/verify', serve(VERIFY_HEADERS))

  r.get('/embed/assets/*', async (c) => {
    let rel: string
    try {
      rel = decodeURIComponent(c.req.path.slice('/embed/assets/'.length))
    } catch {
      return c.notFound() // a malformed escape names no file
    }
    const file = path.resolve(assetsDir, rel)
    if (!file.startsWith(assetsDir + path.sep)) return c.notFound()
    try {
      const body = await readFile(file)
      return new Response(body, {
        headers: {
          'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
          // File names carry a content hash: cache for a year.
          'Cache-Control': 'public, max-age=31536000, immutable',
          'X-Content-Type-Options': 'nosniff',
          'Access-Control-Allow-Origin': '*',
        },
      })
    } catch {
      return c.notFound()
    }
  })
  return r
}
