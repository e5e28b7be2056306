/**
 * The host's icon, one SVG for every page (console, authoring and signing pages, landing,
 * mailbox): an envelope with a pen's stroke, readable at 16 px, light and dark tabs alike.
 * Served with its type and a day's cache (its address never changes, its content rarely);
 * `/favicon.ico`, which browsers ask for by themselves, points to it.
 */
import { Hono } from 'hono'

export const FAVICON_PATH = '/favicon.svg'

export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="7" fill="#1d4ed8"/>
<path d="M6 10.5A1.5 1.5 0 0 1 7.5 9h17a1.5 1.5 0 0 1 1.5 1.5v11a1.5 1.5 0 0 1-1.5 1.5h-17A1.5 1.5 0 0 1 6 21.5z" fill="#fff"/>
<path d="M6.6 9.8 16 17l9.4-7.2" fill="none" stroke="#1d4ed8" stroke-width="2" stroke-linejoin="round"/>
<path d="M9 20.2c1.6-1.8 2.6-1.8 3.4 0s1.8 1.8 3.4 0" fill="none" stroke="#1d4ed8" stroke-width="1.6" stroke-linecap="round"/>
</svg>
`

/** The `<link>` each page's head carries. */
export const FAVICON_LINK = `<link rel="icon" type="image/svg+xml" href="${FAVICON_PATH}">`

const HEADERS = {
  'Content-Type': 'image/svg+xml',
  'Cache-Control': 'public, max-age=86400',
  // An SVG opened by itself is a document: it may run nothing and load nothing.
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
}

export function faviconRoutes() {
  const r = new Hono()
  r.get(FAVICON_PATH, (c) => c.body(FAVICON_SVG, 200, HEADERS))
  r.get('/favicon.ico', (c) => c.redirect(FAVICON_PATH, 301))
  return r
}
