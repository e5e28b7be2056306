/**
 * The API's interactive reference: Swagger UI from the swagger-ui-dist package's own files (no CDN,
 * works offline), at /api/v2/docs, reading ./openapi.json. Served before the API's gate: it
 * describes, it reveals no data. A strict CSP: scripts, styles and requests to this origin only.
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { Hono } from 'hono'
import type { AppEnv } from '../context.js'
import { openApiDocument } from './openapi.js'
import { DOCS_POLICY } from '../security-headers.js'
import type { V2Answer } from '../contract/api-v2.js'

/** Relative links: the same page works under /api/v2 and /api/v2-beta. */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Envelope Signing Service API v2</title>
<link rel="stylesheet" href="docs/assets/swagger-ui.css">
<link rel="icon" type="image/png" href="docs/assets/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="docs/assets/swagger-ui-bundle.js"></script>
<script src="docs/assets/init.js"></script>
</body>
</html>
`

/** Swagger UI's start, as a file (the CSP allows no inline script). No validator badge: it would call out. */
const INIT = `window.ui = SwaggerUIBundle({
  url: new URL('openapi.json', document.baseURI).href,
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`

/** The only files served from swagger-ui-dist, with their types. */
const DIST_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
}

const distDir = () => path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
const files = new Map<string, Promise<Uint8Array>>()
const distFile = (name: string) => {
  let f = files.get(name)
  if (!f) {
    f = readFile(path.join(distDir(), name)).then((b) => new Uint8Array(b))
    f.catch(() => files.delete(name))
    files.set(name, f)
  }
  return f
}

const HEADERS = { 'Content-Security-Policy': DOCS_POLICY, 'Referrer-Policy': 'no-referrer' }

/** GET /openapi.json, /docs and /docs/assets/*: mounted inside the API router, before its gate. */
export function docsRoutes() {
  const r = new Hono<AppEnv>()
  r.get('/openapi.json', (c) => c.json(openApiDocument() satisfies V2Answer<'GET /openapi.json'>))
  r.get('/docs', (c) => c.body(PAGE, 200, { ...HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' }))
  r.get('/docs/assets/:file', async (c) => {
    const name = c.req.param('file')
    if (name === 'init.js') return c.body(INIT, 200, { ...HEADERS, 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache' })
    const type = DIST_FILES[name]
    if (!type) return c.json({ message: `no docs asset ${name}`, code: 'NOT_FOUND' }, 404)
    const bytes = await distFile(name)
    return c.body(new Uint8Array(bytes), 200, { ...HEADERS, 'Content-Type': type, 'Cache-Control': 'public, max-age=3600' })
  })
  return r
}
