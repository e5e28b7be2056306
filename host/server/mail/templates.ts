/**
 * The service's e-mails: plain functions from data to `{subject, html, text}`. Everything that
 * comes from outside (titles, names, the team's message, reasons) is plain text, escaped here.
 * The HTML is one centred column with inline styles only (no tables, no web fonts, no image but
 * the team's logo, carried in the message), which mail clients from phones to Outlook show as
 * intended; the text part says the same.
 */
import { brandPalette } from '../../shared/brand-colour.js'
import { MAIL_STRINGS, actingRole, mailLanguage, type MailLanguage, type MailStrings } from './i18n.js'

export const MAIL_TEMPLATES = ['signing-request', 'reminder', 'completed', 'rejected', 'cancelled', 'team-completed'] as const
export type MailTemplate = (typeof MAIL_TEMPLATES)[number]

interface Common {
  /** The envelope's title. */
  title: string
  /** The sending team (teams.name). */
  teamName: string
  /** Whom the message greets; null/empty: a greeting without a name (the team's own address). */
  recipientName?: string | null | undefined
}

/** A signing request or reminder: a recipient's turn to act. */
export interface RequestData extends Common {
  role: string
  signingUrl: string
  /** documentMeta.subject: replaces the default subject when set. */
  subject?: string | null | undefined
  /** documentMeta.message: replaces the default text when set; plain text, newlines kept. */
  message?: string | null | undefined
}

export interface CompletedData extends Common {
  /** The recipient's link, where the signed files can be downloaded again. */
  signingUrl?: string | null | undefined
  /** Names of the attached files. */
  files: string[]
}

export interface RejectedData extends Common {
  /** Who rejected (name, or e-mail without a name). */
  rejectedBy: string
  reason: string
}

export interface CancelledData extends Common {
  reason?: string | null | undefined
}

export interface TeamCompletedData extends Common {
  files: string[]
  recipients: { name: string; email: string; role: string }[]
}

export interface MailData {
  'signing-request': RequestData
  reminder: RequestData
  completed: CompletedData
  rejected: RejectedData
  cancelled: CancelledData
  'team-completed': TeamCompletedData
}

export interface RenderedMail {
  subject: string
  html: string
  text: string
}

// ---- building blocks ---------------------------------------------------------------------------

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!)

/** One line for a header: no line breaks or control characters, runs of space collapsed. */
export const oneLine = (s: string) =>
  s
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ')
    // Runs of plain spaces only: no-break spaces belong to French typography.
    .replace(/ {2,}/g, ' ')
    .replace(/^ +| +$/g, '')

/** Only http(s) links become buttons and anchors. */
const safeUrl = (url: string) => (/^https?:\/\//i.test(url) ? url : '#')

export type Block =
  | { kind: 'p'; text: string }
  /** Someone's own words (the team's message, a reason): several lines, set off from the rest. */
  | { kind: 'quote'; label?: string; text: string }
  | { kind: 'button'; label: string; url: string }
  /** A small note with the bare link, for clients that do not show the button. */
  | { kind: 'link'; before: string; url: string }
  | { kind: 'small'; text: string }
  | { kind: 'list'; label: string; items: string[] }
  /** A one-time code: large and spaced, to be read and typed without a slip, in the team's colour. */
  | { kind: 'code'; text: string }

export interface Layout {
  lang: MailLanguage
  s: MailStrings
  subject: string
  /** The hidden preview line mail clients show after the subject. */
  preheader: string
  teamName: string
  heading: string
  blocks: Block[]
  footer: string
  /** The team's logo and colour (docs/branding.md); none: the service's own look. */
  brand?: MailBrand | null
}

/**
 * A team's look in its e-mails: the brand colour (buttons and links, made readable on white by
 * brandPalette) and its logo, an image the message carries (`cid:`) or a same-host address.
 */
export interface MailBrand {
  color: string | null
  logo: { src: string; alt: string } | null
}

const DEFAULT_ACCENT = { primary: '#1d4ed8', primaryForeground: '#ffffff' }

const FONT = `-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif`
const P = 'margin:0 0 16px;font-size:16px;line-height:1.5;color:#27272a;'
const SMALL = 'margin:0 0 12px;font-size:13px;line-height:1.5;color:#71717a;'

/** Plain text as HTML: escaped, paragraphs at blank lines, single newlines kept as <br>. */
function paragraphs(text: string, style: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p style="${style}">${escapeHtml(p).replace(/\n/g, '<br>\n')}</p>`)
    .join('\n')
}

function blockHtml(b: Block, accent: { primary: string; primaryForeground: string }): string {
  switch (b.kind) {
    case 'p':
      return paragraphs(b.text, P)
    case 'quote':
      return (
        (b.label ? `<p style="${P}margin-bottom:8px;">${escapeHtml(b.label)}</p>\n` : '') +
        `<div style="margin:0 0 16px;padding:4px 0 4px 14px;border-left:3px solid #d4d4d8;">\n` +
        paragraphs(b.text, 'margin:0 0 8px;font-size:16px;line-height:1.5;color:#3f3f46;') +
        `\n</div>`
      )
    case 'button': {
      const url = escapeHtml(safeUrl(b.url))
      return (
        `<p style="margin:24px 0;">` +
        `<a href="${url}" target="_blank" rel="noopener" style="display:inline-block;padding:12px 24px;border-radius:6px;background:${accent.primary};color:${accent.primaryForeground};` +
        `font-size:16px;font-weight:600;line-height:1.25;text-decoration:none;">${escapeHtml(b.label)}</a></p>`
      )
    }
    case 'link': {
      const url = escapeHtml(safeUrl(b.url))
      return (
        `<p style="${SMALL}">${escapeHtml(b.before)}<br>` +
        `<a href="${url}" target="_blank" rel="noopener" style="color:${accent.primary};word-break:break-all;">${escapeHtml(b.url)}</a></p>`
      )
    }
    case 'small':
      return `<p style="${SMALL}">${escapeHtml(b.text)}</p>`
    case 'code':
      return `<p style="margin:0 0 16px;font-size:28px;font-weight:700;letter-spacing:0.2em;line-height:1.25;color:${accent.primary};">${escapeHtml(b.text)}</p>`
    case 'list':
      return (
        `<p style="${P}margin-bottom:8px;">${escapeHtml(b.label)}</p>\n` +
        `<ul style="margin:0 0 16px;padding-left:20px;font-size:15px;line-height:1.5;color:#3f3f46;">\n` +
        b.items.map((i) => `<li style="margin:0 0 4px;">${escapeHtml(i)}</li>`).join('\n') +
        `\n</ul>`
      )
  }
}

function blockText(b: Block, s: MailStrings): string {
  const clean = (s: string) => s.replace(/\r\n?/g, '\n').trim()
  switch (b.kind) {
    case 'p':
    case 'small':
    case 'code':
      return clean(b.text)
    case 'quote':
      return (b.label ? `${b.label}\n\n` : '') + clean(b.text)
    case 'button':
      return `${b.label}${s.colon}\n${b.url}`
    case 'link':
      // The button's own line already gives the bare link.
      return ''
    case 'list':
      return `${b.label}\n${b.items.map((i) => `- ${i}`).join('\n')}`
  }
}

export function layout(l: Layout): RenderedMail {
  const accent = l.brand?.color ? brandPalette(l.brand.color) : DEFAULT_ACCENT
  const logo = l.brand?.logo
    ? `<img src="${escapeHtml(l.brand.logo.src)}" alt="${escapeHtml(l.brand.logo.alt)}" height="48" style="display:block;height:48px;width:auto;max-width:240px;margin:0 0 16px;border:0;">\n`
    : ''
  const html = `<!DOCTYPE html>
<html lang="${l.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="supported-color-schemes" content="light">
<title>${escapeHtml(l.subject)}</title>
</head>
<body style="margin:0;padding:0;background:#f4f4f5;-webkit-text-size-adjust:100%;">
<div style="display:none;max-height:0;overflow:hidden;opacity:0;">${escapeHtml(l.preheader)}</div>
<div style="background:#f4f4f5;padding:24px 12px;font-family:${FONT};">
<div style="max-width:560px;margin:0 auto;">
<div style="background:#ffffff;border:1px solid #e4e4e7;border-radius:8px;padding:28px 24px;">
${logo}<p style="margin:0 0 20px;font-size:13px;font-weight:600;letter-spacing:0.02em;color:#52525b;">${escapeHtml(l.teamName)}</p>
<h1 style="margin:0 0 20px;font-size:22px;line-height:1.3;font-weight:700;color:#18181b;">${escapeHtml(l.heading)}</h1>
${l.blocks.map((b) => blockHtml(b, accent)).join('\n')}
</div>
<p style="margin:16px 4px 0;font-size:12px;line-height:1.5;color:#a1a1aa;text-align:center;">${escapeHtml(l.footer)}</p>
</div>
</div>
</body>
</html>
`
  const text = [l.heading, ...l.blocks.map((b) => blockText(b, l.s)), '--', l.footer].filter(Boolean).join('\n\n') + '\n'
  return { subject: oneLine(l.subject), html, text }
}

// ---- the messages ------------------------------------------------------------------------------

const displayTeam = (d: Common) => oneLine(d.teamName) || 'Envelope'
const displayTitle = (d: Common) => oneLine(d.title)

function request(d: RequestData, s: MailStrings, lang: MailLanguage, reminder: boolean): Layout {
  const role = actingRole(d.role)
  const team = displayTeam(d)
  const title = displayTitle(d)
  const defaultSubject = s.request.subject[role](title)
  const custom = d.subject ? oneLine(d.subject) : ''
  const subject = reminder ? s.reminder.subject(custom || defaultSubject) : custom || defaultSubject
  const intro = (reminder ? s.reminder.intro : s.request.intro)[role](team, title)
  const message = d.message?.trim() ? d.message : null
  const blocks: Block[] = [{ kind: 'p', text: s.greeting(d.recipientName?.trim() || null) }]
  if (message) {
    // The team's own words replace the default text; a reminder still says it is one.
    if (reminder) blocks.push({ kind: 'p', text: intro })
    blocks.push({ kind: 'quote', label: s.messageFrom(team), text: message })
  } else blocks.push({ kind: 'p', text: intro })
  blocks.push(
    { kind: 'button', label: s.request.button[role], url: d.signingUrl },
    { kind: 'link', before: s.linkFallback, url: d.signingUrl },
    { kind: 'small', text: s.personalLink },
  )
  return { lang, s, subject, preheader: intro, teamName: team, heading: defaultSubject, blocks, footer: s.footer(team) }
}

function completed(d: CompletedData, s: MailStrings, lang: MailLanguage): Layout {
  const team = displayTeam(d)
  const title = displayTitle(d)
  const subject = s.completed.subject(title)
  const body = s.completed.body(title, d.files.length)
  const blocks: Block[] = [
    { kind: 'p', text: s.greeting(d.recipientName?.trim() || null) },
    { kind: 'p', text: body },
  ]
  if (d.signingUrl) {
    blocks.push(
      { kind: 'p', text: s.completed.again },
      { kind: 'button', label: s.completed.button, url: d.signingUrl },
      { kind: 'link', before: s.linkFallback, url: d.signingUrl },
      { kind: 'small', text: s.personalLink },
    )
  }
  return { lang, s, subject, preheader: body, teamName: team, heading: subject, blocks, footer: s.footer(team) }
}

function rejected(d: RejectedData, s: MailStrings, lang: MailLanguage): Layout {
  const team = displayTeam(d)
  const title = displayTitle(d)
  const who = oneLine(d.rejectedBy)
  const subject = s.rejected.subject(who, title)
  const body = s.rejected.body(who, title)
  const blocks: Block[] = [{ kind: 'p', text: s.greeting(d.recipientName?.trim() || null) }, { kind: 'p', text: body }]
  if (d.reason.trim()) blocks.push({ kind: 'quote', label: s.reason, text: d.reason })
  return { lang, s, subject, preheader: body, teamName: team, heading: subject, blocks, footer: s.footer(team) }
}

function cancelled(d: CancelledData, s: MailStrings, lang: MailLanguage): Layout {
  const team = displayTeam(d)
  const title = displayTitle(d)
  const subject = s.cancelled.subject(title)
  const body = s.cancelled.body(team, title)
  const blocks: Block[] = [{ kind: 'p', text: s.greeting(d.recipientName?.trim() || null) }, { kind: 'p', text: body }]
  if (d.reason?.trim()) blocks.push({ kind: 'quote', label: s.reason, text: d.reason })
  return { lang, s, subject, preheader: body, teamName: team, heading: subject, blocks, footer: s.footer(team) }
}

function teamCompleted(d: TeamCompletedData, s: MailStrings, lang: MailLanguage): Layout {
  const team = displayTeam(d)
  const title = displayTitle(d)
  const subject = s.teamCompleted.subject(title)
  const body = s.teamCompleted.body(title, d.files.length)
  const blocks: Block[] = [{ kind: 'p', text: s.greeting(d.recipientName?.trim() || null) }, { kind: 'p', text: body }]
  if (d.recipients.length) {
    const did = (role: string) => (role === 'CC' ? s.did.CC : s.did[actingRole(role)])
    const items = d.recipients.map((r) => s.teamCompleted.item(oneLine(r.name) ? `${oneLine(r.name)} <${r.email}>` : r.email, did(r.role)))
    blocks.push({ kind: 'list', label: s.teamCompleted.who, items })
  }
  return { lang, s, subject, preheader: body, teamName: team, heading: subject, blocks, footer: s.footer(team) }
}

/**
 * One message in `language` (documentMeta.language: en, de, fr; anything else English).
 */
export function render<K extends MailTemplate>(kind: K, data: MailData[K], language?: string | null, brand?: MailBrand | null): RenderedMail {
  return layout({ ...message(kind, data, mailLanguage(language)), brand: brand ?? null })
}

function message<K extends MailTemplate>(kind: K, data: MailData[K], lang: MailLanguage): Layout {
  const s = MAIL_STRINGS[lang]
  switch (kind) {
    case 'signing-request':
      return request(data as RequestData, s, lang, false)
    case 'reminder':
      return request(data as RequestData, s, lang, true)
    case 'completed':
      return completed(data as CompletedData, s, lang)
    case 'rejected':
      return rejected(data as RejectedData, s, lang)
    case 'cancelled':
      return cancelled(data as CancelledData, s, lang)
    case 'team-completed':
      return teamCompleted(data as TeamCompletedData, s, lang)
  }
  throw new Error(`unknown mail template ${String(kind)}`)
}
