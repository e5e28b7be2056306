import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { Hono, type Context } from 'hono'
import { DIRECT_ROUTES, EMBED_ROUTES, MULTISIGN_ROUTE, SIGN_ROUTES } from '../../src/protocol/index.js'
import type { HostContext } from './context.js'
import { authenticate } from './auth/principal.js'
import { tokenOrNull } from './api/schemas.js'
import { verifyPresignToken } from './auth/presign.js'
import { sessionAnswer } from './api/embedding.js'
import { teamEmbedding, teamOfDirectLinkToken, teamOfRecipientToken } from './domain/team/teams.js'
import { newNonce, pagePolicy } from './security-headers.js'
import { assetResponse } from './assets.js'

const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  // The token is in the page's query string (authoring) or path (signing): never let it leave
  // in a Referer, never cache the page.
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
}

const NOT_BUILT = { message: 'authoring pages are not built: run npm run build:app', code: 'APP_NOT_BUILT' }

/**
 * The teams whose page this is, from the credentials in its address (none when they name none),
 * and for an authoring page the answer to GET /embedding/session it may carry.
 */
type TeamsOf = (c: Context) => Promise<{ teams: string[]; session?: object }>

/**
 * Who may frame a page showing the documents of `lists` (each team's list, null for anyone):
 * only an origin every one of them allows.
 */
function commonOrigins(lists: (string[] | null)[]): string[] | null {
  const set = lists.filter((l): l is string[] => l !== null)
  return set.length ? set.reduce((all, l) => all.filter((o) => l.includes(o))) : null
}

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
  const teamWhere = (find: (db: HostContext['db'], token: string) => Promise<string | null>) => async (token: string | undefined) => {
    const valid = tokenOrNull(token)
    return valid ? find(ctx.db, valid) : null
  }
  const byRecipient = teamWhere(teamOfRecipientToken)
  const byDirectLink = teamWhere(teamOfDirectLinkToken)
  // The authoring page's token is checked as the API checks it (signature, expiry, the minting
  // API token alive, the plan), and its answer to GET /embedding/session travels in the page,
  // saving the page that round trip. Only for a team without an origin list: with one, the page
  // asks itself, naming the parent the browser reports, and the API refuses a parent not listed.
  const byPresign: TeamsOf = async (c) => {
    const token = c.req.query('token')
    if (!token) return { teams: [] }
    const p = await authenticate(ctx, `Bearer ${token}`).catch(() => null)
    // Refused (revoked, plan): the page shows the API's refusal, still under its team's frame-ancestors.
    if (p?.kind !== 'presign') return { teams: await verifyPresignToken(ctx.presignSecret, token).then((claims) => [claims.teamId], () => []) }
    return (await teamEmbedding(ctx.db, ctx.cache.teams, p.teamId)).origins ? { teams: [p.teamId] } : { teams: [p.teamId], session: sessionAnswer(p) }
  }
  const teamsOf = (find: (token: string | undefined) => Promise<string | null>, tokens: (c: Context) => string[]): TeamsOf => async (c) => ({
    teams: [...new Set((await Promise.all(tokens(c).map(find))).filter((t): t is string => t !== null))],
  })

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

  /**
   * One page answer: the page with a fresh nonce for the customer's <style> (read by the app from
   * `meta[property=csp-nonce]`), under the policy of security-headers.ts. `teamsOf` absent: a
   * standalone page, never framed.
   */
  const serve = (teamsOf: TeamsOf | null, signing = false, authoring = false) => async (c: Context) => {
    let html: Buffer<ArrayBuffer>
    try {
      html = await readFile(path.join(distDir, 'index.html'))
    } catch {
      return Response.json(NOT_BUILT, { status: 503, headers: { 'Cache-Control': 'no-store' } })
    }
    if (signing) html = await signPreload(html)
    const page = teamsOf ? await teamsOf(c) : null
    const origins = page ? commonOrigins(await Promise.all(page.teams.map(async (t) => (await teamEmbedding(ctx.db, ctx.cache.teams, t)).origins))) : []
    const nonce = newNonce()
    // Same-origin, never cached (no-store): what is inlined is what the token in the URL already says.
    const session = page?.session ? `<script type="application/json" id="embed-session">${scriptJson(page.session)}</script>` : ''
    const body = beforeHeadEnd(html, `<meta property="csp-nonce" nonce="${nonce}">${session}`)
    // A team's list of parents never shuts out this host's own console, which frames the editor for members.
    const ancestors = authoring && origins ? [...origins, "'self'"] : origins
    const headers = { ...PAGE_HEADERS, 'Content-Security-Policy': pagePolicy(nonce, ancestors) }
    // A standalone signing page is never framed: a page that signs must not be dressed up by someone else's.
    return new Response(body, { headers: teamsOf ? headers : { ...headers, 'X-Frame-Options': 'DENY' } })
  }
  const authoring = serve(byPresign, false, true)
  for (const route of Object.values(EMBED_ROUTES)) r.get(route, authoring)
  r.get(MULTISIGN_ROUTE, serve(teamsOf(byRecipient, (c) => c.req.queries('token') ?? []), true))
  r.get(SIGN_ROUTES.embed, serve(teamsOf(byRecipient, (c) => [c.req.param('token')!]), true))
  r.get(DIRECT_ROUTES.embed, serve(teamsOf(byDirectLink, (c) => [c.req.param('token')!]), true))
  // The standalone pages (`/sign/{token}`, the link in the recipient's e-mail, and a template's
  // direct link `/d/{token}`); their embeddable twins are /embed/sign and /embed/direct.
  const standalone = serve(null, true)
  r.get(SIGN_ROUTES.page, standalone)
  r.get(DIRECT_ROUTES.page, standalone)
  // The public page that checks a PDF's seal: standalone (never framed), the same policy.
  r.get('/verify', serve(null))
  // The team console: standalone, never framed; it signs people in (console/).
  r.get('/console', serve(null))
  r.get('/console/*', serve(null))

  r.get('/embed/assets/*', async (c) => {
    let rel: string
    try {
      rel = decodeURIComponent(c.req.path.slice('/embed/assets/'.length))
    } catch {
      return c.notFound() // a malformed escape names no file
    }
    return (await assetResponse(assetsDir, rel, c.req.header('Accept-Encoding'))) ?? c.notFound()
  })
  return r
}
