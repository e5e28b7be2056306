import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { Hono } from 'hono'
import { DIRECT_ROUTES, EMBED_ROUTES, MULTISIGN_ROUTE, SIGN_ROUTES } from '../../src/protocol/index.js'

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

const NOT_BUILT = { message: 'authoring pages are not built: run npm run build:app', code: 'APP_NOT_BUILT' }

/**
 * The pages (one index.html for every authoring and signing route: the app picks the page
 * from the path) and their hashed assets. The recipient token in a signing path is a
 * credential: nothing here logs paths.
 */
export function pageRoutes(distDir: string) {
  const r = new Hono()
  const assetsDir = path.join(distDir, 'assets')

  const serve = (headers: Record<string, string>) => async () => {
    try {
      return new Response(await readFile(path.join(distDir, 'index.html')), { headers })
    } catch {
      return Response.json(NOT_BUILT, { status: 503, headers: { 'Cache-Control': 'no-store' } })
    }
  }
  const page = serve(PAGE_HEADERS)
  for (const route of [...Object.values(EMBED_ROUTES), MULTISIGN_ROUTE]) r.get(route, page)
  const standalone = serve(STANDALONE_SIGN_HEADERS)
  for (const routes of [SIGN_ROUTES, DIRECT_ROUTES]) {
    r.get(routes.embed, page)
    r.get(routes.page, standalone)
  }

  r.get('/embed/assets/*', async (c) => {
    const rel = decodeURIComponent(c.req.path.slice('/embed/assets/'.length))
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
