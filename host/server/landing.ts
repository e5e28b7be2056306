import { Hono } from 'hono'
import { publicOrigin } from './api/http.js'
import type { HostContext } from './context.js'
import { jobBacklog } from './jobs/job-table.js'
import { LANDING_POLICY } from './security-headers.js'
import { FAVICON_LINK } from './favicon.js'

/**
 * `/`: what someone who opens the host's address sees. A small page that says what this service is
 * and links to its API reference, its local mailbox (when there is one) and its health, which it
 * measures as it answers. No script and no inline style: its stylesheet is `/landing.css`, so a
 * self-only Content-Security-Policy keeps it working. API paths keep their JSON 404.
 */
export function landingRoutes(ctx: HostContext & { mailbox: boolean }) {
  const r = new Hono()
  r.get('/', async (c) => {
    const origin = publicOrigin(ctx, c)
    const health = await measure(ctx)
    const link = (href: string, text: string, note: string) => `<li><a href="${esc(href)}">${esc(text)}</a><span>${esc(note)}</span></li>`
    const body = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Signing service</title>
<link rel="stylesheet" href="/landing.css">
${FAVICON_LINK}
</head>
<body>
<main>
<h1>Signing service</h1>
<p class="lead">This host serves the e-signature API v2 and the pages that the <code>envelope-embed</code> components load in their iframes: authoring of documents and templates, and signing.</p>
<ul class="links">
${link('/console', 'Team console', 'Sign in to see your team’s documents and templates, and to run its members, API tokens, webhooks and settings')}
${link('/verify', 'Verify a document', 'Check the seal of a PDF this service completed')}
${link('/api/v2/docs', 'API reference', `Every route of ${origin}/api/v2, with its schemas (OpenAPI at /api/v2/openapi.json)`)}
${ctx.mailbox ? link('/mailbox', 'Mailbox', 'The e-mails this host would have sent: no SMTP server is configured') : ''}
</ul>
<h2>Health</h2>
<dl class="health" data-ok="${health.ok}">
<dt>Status</dt><dd class="status">${health.ok ? 'ready' : 'degraded'}</dd>
<dt>Database</dt><dd>${esc(health.database)}</dd>
<dt>Jobs</dt><dd>${esc(health.jobs)}</dd>
</dl>
<p class="muted">Embedding it: <code>npm install envelope-embed</code>, then <code>&lt;EmbedCreateEnvelope host="${esc(origin)}" presignToken={…} /&gt;</code> (presign tokens come from your backend, see the API reference).</p>
</main>
</body>
</html>
`
    return c.html(body, health.ok ? 200 : 503, { 'Cache-Control': 'no-store', 'Content-Security-Policy': LANDING_POLICY, 'Referrer-Policy': 'no-referrer' })
  })
  r.get('/landing.css', (c) => c.body(CSS, 200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'no-cache' }))
  return r
}

async function measure(ctx: HostContext): Promise<{ ok: boolean; database: string; jobs: string }> {
  const started = performance.now()
  try {
    const { waiting, failed } = await jobBacklog(ctx.db)
    const ms = Math.max(1, Math.round(performance.now() - started))
    return { ok: true, database: `answers (${ms} ms)`, jobs: `${waiting} waiting or running, ${failed} failed` }
  } catch {
    return { ok: false, database: 'does not answer', jobs: 'unknown' }
  }
}

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

const CSS = `:root{color-scheme:light dark;--fg:#101828;--muted:#667085;--bg:#f6f7f9;--card:#fff;--border:#e4e7ec;--accent:#3452e1;--ok:#067647;--bad:#b42318}
@media (prefers-color-scheme:dark){:root{--fg:#f2f4f7;--muted:#98a2b3;--bg:#0c111d;--card:#161b26;--border:#2b3241;--accent:#7c93ff;--ok:#47cd89;--bad:#f97066}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:680px;margin:48px auto;padding:32px;background:var(--card);border:1px solid var(--border);border-radius:12px}
h1{margin:0 0 8px;font-size:26px}
h2{margin:28px 0 8px;font-size:17px}
.lead{margin:0 0 20px;color:var(--muted)}
code{font-size:14px}
.links{list-style:none;margin:0;padding:0;display:grid;gap:10px}
.links li{display:flex;flex-direction:column;padding:12px 14px;border:1px solid var(--border);border-radius:8px}
.links a{font-weight:600;color:var(--accent);text-decoration:none}
.links a:hover{text-decoration:underline}
.links span{font-size:14px;color:var(--muted)}
.health{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0}
.health dt{color:var(--muted)}
.health dd{margin:0}
.health .status{font-weight:600;color:var(--ok)}
.health[data-ok=false] .status{color:var(--bad)}
.muted{margin-top:28px;font-size:14px;color:var(--muted)}
@media (max-width:720px){main{margin:0;border:0;border-radius:0;padding:24px 20px}}
`
