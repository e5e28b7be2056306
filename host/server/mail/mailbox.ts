/**
 * The local mailbox: every message the service sent while no SMTP server is configured, as
 * server-rendered pages (no scripts). Messages carry signing links, which are credentials, so
 * only a person on this machine sees anything: a loopback peer (127.0.0.0/8, ::1), asking for a
 * loopback name (localhost, 127.0.0.1, [::1]), not through a proxy. Everyone else gets the same
 * 404 as for a path that does not exist.
 *
 *   GET /mailbox                          the list, newest first (refreshes every 5 s)
 *   GET /mailbox/{id}                     one message: its HTML in a sandboxed frame, its text, its attachments
 *   GET /mailbox/{id}/attachments/{n}     attachment n (0-based) as a download
 */
import { getConnInfo } from '@hono/node-server/conninfo'
import { FAVICON_LINK } from '../favicon.js'
import { Hono, type Context } from 'hono'
import { iso, type Queryable } from '../db/index.js'
import { escapeHtml as esc } from './templates.js'
import { MAILBOX_POLICY } from '../security-headers.js'
import { readFile } from '../domain/item/files.js'

const LIST_LIMIT = 500

const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  // Links in these pages are credentials: never send them on in a Referer, never cache them.
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': MAILBOX_POLICY,
}

const notFound = (c: Context, message: string) => c.json({ message, code: 'NOT_FOUND' }, 404, { 'Cache-Control': 'no-store' })
/** What the app answers for a path it does not have. */
const noRoute = (c: Context) => notFound(c, `no route for ${c.req.method} ${c.req.path}`)

/** 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false
  const a = address.toLowerCase()
  return a === '::1' || a.startsWith('127.') || a.startsWith('::ffff:127.')
}

/** localhost, *.localhost, 127.x.y.z, [::1]: names a page on another site cannot rebind to. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '')
  return h === 'localhost' || h.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '[::1]' || h === '::1'
}

const PROXY_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-real-ip']

/**
 * A person on this machine: the peer is a loopback address, nothing relayed the request (a
 * reverse proxy on the same machine would make every visitor look local) and the page was asked
 * for by a loopback name (a site that rebinds its own name to 127.0.0.1 is refused).
 */
function fromThisMachine(c: Context): boolean {
  let peer: string | undefined
  try {
    peer = getConnInfo(c).remote.address
  } catch {
    // Not served by @hono/node-server (no socket to ask): refuse.
    return false
  }
  if (!isLoopbackAddress(peer)) return false
  if (PROXY_HEADERS.some((h) => c.req.header(h) !== undefined)) return false
  return isLoopbackHost(new URL(c.req.url).hostname)
}

interface MailRow {
  id: string | number
  template: string
  to_address: string
  from_address: string
  subject: string
  html: string
  text: string
  attachments: { filename: string; documentDataId: string }[]
  envelope_id: string | null
  created_at: Date | string
}

const when = (value: unknown) => (iso(value) ?? '').replace('T', ' ').replace(/\.\d+Z$/, ' UTC')

const STYLE = `
*{box-sizing:border-box}
body{margin:0;background:#f4f4f5;color:#18181b;font:15px/1.5 -apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif}
header{background:#18181b;color:#fff;padding:12px 16px;display:flex;flex-wrap:wrap;gap:4px 16px;align-items:baseline}
header h1{margin:0;font-size:17px}
header a{color:#fff}
header p{margin:0;color:#a1a1aa;font-size:13px}
main{max-width:960px;margin:0 auto;padding:16px}
.empty{background:#fff;border:1px solid #e4e4e7;border-radius:8px;padding:24px;color:#52525b}
ol.mails{list-style:none;margin:0;padding:0;background:#fff;border:1px solid #e4e4e7;border-radius:8px;overflow:hidden}
ol.mails li+li{border-top:1px solid #e4e4e7}
ol.mails a{display:block;padding:12px 16px;color:inherit;text-decoration:none}
ol.mails a:hover,ol.mails a:focus{background:#f4f4f5}
.subject{display:block;font-weight:600;overflow-wrap:anywhere}
.meta{display:flex;flex-wrap:wrap;gap:2px 12px;color:#52525b;font-size:13px}
.meta span{overflow-wrap:anywhere}
.tag{display:inline-block;padding:0 6px;border-radius:4px;background:#e4e4e7;color:#3f3f46;font-size:12px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 12px;margin:0 0 16px;background:#fff;border:1px solid #e4e4e7;border-radius:8px;padding:12px 16px}
dt{color:#71717a}
dd{margin:0;overflow-wrap:anywhere}
h2{font-size:15px;margin:24px 0 8px}
iframe{display:block;width:100%;height:70vh;min-height:420px;border:1px solid #e4e4e7;border-radius:8px;background:#fff}
pre{margin:0;background:#fff;border:1px solid #e4e4e7;border-radius:8px;padding:12px 16px;white-space:pre-wrap;overflow-wrap:anywhere;font:14px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
ul.files{margin:0;padding-left:20px}
a{color:#1d4ed8}
@media (max-width:480px){main{padding:12px 8px}dl{grid-template-columns:1fr;gap:0}dd{margin-bottom:6px}}
`

function page(title: string, body: string, opts: { refresh?: boolean } = {}): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
${opts.refresh ? '<meta http-equiv="refresh" content="5">\n' : ''}<title>${esc(title)}</title>
${FAVICON_LINK}
<style>${STYLE}</style>
</head>
<body>
<header><h1><a href="/mailbox">Local mailbox</a></h1><p>Messages the service sent; no SMTP server is configured (SMTP_URL).</p></header>
<main>
${body}
</main>
</body>
</html>
`
}

/** Plain text with its http(s) links clickable (opening a new tab), everything else escaped. */
function linkify(text: string): string {
  const parts = text.split(/(https?:\/\/[^\s<>"']+)/g)
  return parts
    .map((part, i) => (i % 2 ? `<a href="${esc(part)}" target="_blank" rel="noopener noreferrer">${esc(part)}</a>` : esc(part)))
    .join('')
}

/**
 * The message's HTML for a sandboxed frame: links open in a new tab (the signing page refuses
 * to be framed) and send no Referer.
 */
function framed(html: string): string {
  const inject = '<base target="_blank"><meta name="referrer" content="no-referrer">'
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (m) => m + inject) : inject + html
}

function listPage(rows: MailRow[], total: number): string {
  if (!rows.length) {
    return page('Local mailbox', `<p class="empty">No messages yet. This page refreshes every 5 seconds.</p>`, { refresh: true })
  }
  const items = rows
    .map(
      (m) => `<li><a href="/mailbox/${esc(String(m.id))}">
<span class="subject">${esc(m.subject)}</span>
<span class="meta"><span>To ${esc(m.to_address)}</span><span>${esc(when(m.created_at))}</span><span class="tag">${esc(m.template)}</span>${
        m.attachments.length ? `<span>${m.attachments.length} attachment${m.attachments.length === 1 ? '' : 's'}</span>` : ''
      }</span>
</a></li>`,
    )
    .join('\n')
  const more = total > rows.length ? `<p>The newest ${rows.length} of ${total} messages.</p>` : `<p>${total} message${total === 1 ? '' : 's'}, newest first; refreshes every 5 seconds.</p>`
  return page(`Local mailbox (${total})`, `${more}\n<ol class="mails">\n${items}\n</ol>`, { refresh: true })
}

function messagePage(m: MailRow): string {
  const id = esc(String(m.id))
  const files = m.attachments.length
    ? `<h2>Attachments</h2>\n<ul class="files">\n${m.attachments
        .map((a, n) => `<li><a href="/mailbox/${id}/attachments/${n}" download>${esc(a.filename)}</a></li>`)
        .join('\n')}\n</ul>`
    : ''
  return page(
    m.subject,
    `<dl>
<dt>Subject</dt><dd>${esc(m.subject)}</dd>
<dt>From</dt><dd>${esc(m.from_address)}</dd>
<dt>To</dt><dd>${esc(m.to_address)}</dd>
<dt>Sent</dt><dd>${esc(when(m.created_at))}</dd>
<dt>Template</dt><dd><span class="tag">${esc(m.template)}</span>${m.envelope_id ? ` · envelope ${esc(m.envelope_id)}` : ''}</dd>
</dl>
${files}
<h2>HTML</h2>
<iframe title="The message as HTML" sandbox="allow-popups allow-popups-to-escape-sandbox" referrerpolicy="no-referrer" srcdoc="${esc(framed(m.html))}"></iframe>
<h2>Text</h2>
<pre>${linkify(m.text)}</pre>`,
  )
}

/** RFC 6266: an ASCII fallback and the UTF-8 name. */
function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`
}

const idOf = (raw: string) => (/^[1-9]\d{0,17}$/.test(raw) ? raw : null)

/** The local mailbox's pages; mount at the root when no SMTP server is configured. */
export function mailboxRoutes(db: Queryable) {
  const r = new Hono()
  const load = async (raw: string) => {
    const id = idOf(raw)
    if (!id) return null
    const [row] = await db.query<MailRow>('select * from mails where id = $1', [id])
    return row ?? null
  }
  const guard =
    (handler: (c: Context) => Promise<Response>) =>
    (c: Context): Promise<Response> | Response =>
      fromThisMachine(c) ? handler(c) : noRoute(c)

  const list = guard(async (c) => {
    const rows = await db.query<MailRow>(
      `select id, template, to_address, from_address, subject, '' as html, '' as text, attachments, envelope_id, created_at
       from mails order by id desc limit ${LIST_LIMIT}`,
    )
    const [{ count }] = (await db.query<{ count: number }>('select count(*)::int as count from mails')) as [{ count: number }]
    return c.body(listPage(rows, count), 200, PAGE_HEADERS)
  })
  r.get('/mailbox', list)
  r.get('/mailbox/', list)

  r.get(
    '/mailbox/:id',
    guard(async (c) => {
      const m = await load(c.req.param('id')!)
      if (!m) return notFound(c, 'no such message in the local mailbox')
      return c.body(messagePage(m), 200, PAGE_HEADERS)
    }),
  )

  r.get(
    '/mailbox/:id/attachments/:n',
    guard(async (c) => {
      const m = await load(c.req.param('id')!)
      const n = c.req.param('n')!
      const ref = m && /^\d{1,4}$/.test(n) ? m.attachments[Number(n)] : undefined
      if (!ref) return notFound(c, 'no such attachment in the local mailbox')
      const bytes = await readFile(db, ref.documentDataId).then((f) => new Uint8Array(f.bytes), () => null)
      if (!bytes) return notFound(c, 'the attachment’s file no longer exists')
      return c.body(bytes, 200, {
        'Content-Type': /\.pdf$/i.test(ref.filename) ? 'application/pdf' : 'application/octet-stream',
        'Content-Disposition': contentDisposition(ref.filename),
        'Content-Length': String(bytes.byteLength),
        'Cache-Control': 'no-store',
        'Referrer-Policy': 'no-referrer',
      })
    }),
  )
  return r
}
