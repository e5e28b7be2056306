/**
 * How a rendered message leaves the service: through an SMTP server (`SMTP_URL`), or, without
 * one and only when asked for (`MAILBOX=1`), into the local mailbox (the `mails` table, shown at
 * /mailbox to loopback callers). With neither, nothing can send: each message fails and its job
 * is retried (then ends failed), so no e-mail is dropped without a trace.
 * Attachments travel as references to `document_data` rows; the SMTP transport reads the bytes
 * when it sends, the local one keeps the references.
 */
import nodemailer from 'nodemailer'
import addressparser from 'nodemailer/lib/addressparser'
import type { Queryable } from '../db/index.js'
import { oneLine } from './templates.js'
import { readFile } from '../domain/item/files.js'
import { DEFAULT_MAIL_FROM } from '../config.js'
import { addressShape } from '../../shared/sender-name.js'


export interface MailAttachmentRef {
  filename: string
  documentDataId: string
}

export interface MailMessage {
  /** One address. */
  to: string
  /** Shown with the address (the recipient's name). */
  toName?: string | null | undefined
  subject: string
  html: string
  text: string
  /** Who the message is from, as a person would say it (the team's name): "{senderName} via {MAIL_FROM's name}". */
  senderName?: string | null | undefined
  /** The team's own sender name (docs/branding.md): the whole display name of From, in place of senderName's. */
  brandedSender?: string | null | undefined
  /** Where replies go (the team's Reply-To). */
  replyTo?: string | null | undefined
  /** Images the HTML shows by `cid:` (the team's logo); the local mailbox shows them from `url`. */
  inlineImages?: InlineImage[] | undefined
  attachments?: MailAttachmentRef[] | undefined
  /** The template's name (templates.ts), kept with the local mailbox's copy. */
  template: string
  teamId?: string | null | undefined
  envelopeId?: string | null | undefined
  recipientId?: number | null | undefined
}

export interface InlineImage {
  cid: string
  filename: string
  contentType: string
  content: Uint8Array
  /** The same image on this host, for a copy kept where `cid:` means nothing. */
  url: string
}

export interface SentMail {
  /** The local mailbox's row id (`mails.id`); the SMTP Message-ID for SMTP. */
  id: string
}

export interface MailTransport {
  readonly kind: 'smtp' | 'local' | 'none'
  /** MAIL_FROM as configured. */
  readonly from: string
  /** Sends one message; rejects when it could not be handed over (the mail job is retried). */
  send(mail: MailMessage): Promise<SentMail>
  close(): Promise<void>
}

export interface MailTransportOptions {
  /** `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…:465`. */
  smtpUrl?: string | undefined
  /** Without smtpUrl: keep messages in the local mailbox (a development aid); else none can be sent. */
  mailbox?: boolean | undefined
  /** The From header; default `Envelope <no-reply@localhost>`. */
  from?: string | undefined
  /** The database: attachments' bytes (SMTP), the mailbox's rows (local). */
  db: Queryable
}

interface Mailbox {
  name: string
  address: string
}

function parseFrom(from: string): Mailbox {
  const parsed = addressparser(from, { flatten: true })
  const first = parsed[0]
  if (parsed.length !== 1 || !first?.address || !first.address.includes('@')) {
    throw new Error(`MAIL_FROM must be one address such as "Envelope <no-reply@example.com>", got "${from}"`)
  }
  return { name: oneLine(first.name ?? ''), address: first.address }
}

/** A display name that could not pass for an address (shared/sender-name.ts), else empty. */
const displayName = (name: string | null | undefined): string => {
  const line = oneLine(name ?? '').slice(0, 100)
  return addressShape(line) === null ? line : ''
}

/**
 * The From of one message: the team's name before the configured one ("Acme via Envelope"), or
 * the team's own sender name alone; the address is always the configured one. A name that looks
 * like an address (stored before the branding refused such names, or a team's own name) is not
 * shown: the message goes out as the service's own.
 */
function sender(base: Mailbox, senderName: string | null | undefined, brandedSender?: string | null): Mailbox {
  const branded = displayName(brandedSender)
  if (branded) return { name: branded, address: base.address }
  const team = displayName(senderName)
  if (!team) return base
  return { name: `${team} via ${base.name || 'Envelope'}`, address: base.address }
}

/** `"Name" <address>` as a header would show it (for the local mailbox). */
export function formatAddress(m: Mailbox): string {
  return m.name ? `"${m.name.replace(/[\\"]/g, '\\$&')}" <${m.address}>` : m.address
}

/** The From of a message from MAIL_FROM `from` (its whole text) as a header shows it: for the local mailbox and the review before sending. */
export const fromHeader = (from: string, mail: Pick<MailMessage, 'senderName' | 'brandedSender'>): string =>
  formatAddress(sender(parseFrom(from), mail.senderName, mail.brandedSender))

function checkUrl(smtpUrl: string): void {
  let url: URL
  try {
    url = new URL(smtpUrl)
  } catch {
    throw new Error('SMTP_URL is not a URL (expected smtp://user:pass@host:587 or smtps://user:pass@host:465)')
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new Error(`SMTP_URL must start with smtp:// or smtps://, got ${url.protocol}//`)
  }
}

async function attachmentBytes(db: Queryable, ref: MailAttachmentRef): Promise<Buffer> {
  const bytes = await readFile(db, ref.documentDataId)
    .then((f) => f.bytes)
    .catch((err: Error) => Promise.reject(new Error(`attachment ${ref.filename}: ${err.message}`)))
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}

const contentType = (filename: string) => (/\.pdf$/i.test(filename) ? 'application/pdf' : 'application/octet-stream')

function smtpTransport(smtpUrl: string, from: Mailbox, fromText: string, db: Queryable): MailTransport {
  checkUrl(smtpUrl)
  // Options in the URL's query string (e.g. ?requireTLS=true) override these.
  const transporter = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
    disableFileAccess: true,
    disableUrlAccess: true,
  })
  return {
    kind: 'smtp',
    from: fromText,
    async send(mail) {
      const attachments = []
      for (const ref of mail.attachments ?? []) {
        attachments.push({ filename: ref.filename, content: await attachmentBytes(db, ref), contentType: contentType(ref.filename) })
      }
      for (const image of mail.inlineImages ?? []) {
        attachments.push({ filename: image.filename, content: Buffer.from(image.content), contentType: image.contentType, cid: image.cid, contentDisposition: 'inline' as const })
      }
      const info = await transporter.sendMail({
        from: sender(from, mail.senderName, mail.brandedSender),
        ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
        to: { name: oneLine(mail.toName ?? ''), address: mail.to },
        subject: oneLine(mail.subject),
        text: mail.text,
        html: mail.html,
        attachments,
        headers: { 'Auto-Submitted': 'auto-generated' },
        disableFileAccess: true,
        disableUrlAccess: true,
      })
      return { id: String(info.messageId ?? '') }
    },
    async close() {
      transporter.close()
    },
  }
}

/** The HTML as the local mailbox keeps it: inline images by their address on this host. */
const localHtml = (mail: MailMessage) => (mail.inlineImages ?? []).reduce((html, i) => html.split(`cid:${i.cid}`).join(i.url), mail.html)

function localTransport(fromText: string, db: Queryable): MailTransport {
  return {
    kind: 'local',
    from: fromText,
    async send(mail) {
      const [row] = await db.query<{ id: string | number }>(
        `insert into mails (team_id, envelope_id, recipient_id, template, to_address, from_address, subject, html, text, attachments)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning id`,
        [
          mail.teamId ?? null,
          mail.envelopeId ?? null,
          mail.recipientId ?? null,
          mail.template,
          mail.to,
          fromHeader(fromText, mail),
          oneLine(mail.subject),
          localHtml(mail),
          mail.text,
          JSON.stringify((mail.attachments ?? []).map((a) => ({ filename: a.filename, documentDataId: a.documentDataId }))),
        ],
      )
      return { id: String(row!.id) }
    },
    async close() {},
  }
}

export const NO_MAIL_TRANSPORT = 'no way to send e-mail: set SMTP_URL (or MAILBOX=1 for the local development mailbox)'

/** Neither SMTP nor the mailbox: every message fails, so its job waits and is retried. */
function noTransport(fromText: string): MailTransport {
  return {
    kind: 'none',
    from: fromText,
    send: async () => Promise.reject(new Error(NO_MAIL_TRANSPORT)),
    async close() {},
  }
}

/**
 * With `smtpUrl`, nodemailer over SMTP; without, the local mailbox if asked for, else none.
 * Throws at once on a malformed SMTP_URL or MAIL_FROM (call it at startup). Reaching the SMTP
 * server is tried per message.
 */
export function createMailTransport(opts: MailTransportOptions): MailTransport {
  const fromText = opts.from?.trim() || DEFAULT_MAIL_FROM
  const from = parseFrom(fromText)
  if (opts.smtpUrl) return smtpTransport(opts.smtpUrl, from, fromText, opts.db)
  return opts.mailbox ? localTransport(fromText, opts.db) : noTransport(fromText)
}
