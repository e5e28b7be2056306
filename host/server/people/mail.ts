/**
 * The account e-mails (verify, reset, sign-in link, invitation): one job kind on the one queue,
 * rendered at send time in the reader's language with the envelope e-mails' layout. An invitation
 * is the team's and comes in its look (mail/team-look.ts); the others are about the reader's own
 * account and come in the service's. The job carries the link's row id only; the link's value is
 * derived here (links.ts), and a link used or replaced before the job runs is not sent.
 */
import type { KeyObject } from 'node:crypto'
import type { Db, Queryable } from '../db/index.js'
import { enqueue, type JobHandler } from '../jobs/enqueue.js'
import { MAIL_STRINGS, mailLanguage, type MailLanguage } from '../mail/i18n.js'
import { layout, oneLine, type Block } from '../mail/templates.js'
import { teamLook } from '../mail/team-look.js'
import type { MailTransport } from '../mail/transport.js'
import { linkValue, type LinkPurpose } from './links.js'

export const ACCOUNT_MAIL_JOB = 'account-mail'

export interface AccountMailPayload {
  linkId: string
  purpose: LinkPurpose
  to: string
  language: MailLanguage
  /** Invitations: the team and who invited. */
  teamName?: string | undefined
  teamId?: string | undefined
  inviter?: string | undefined
}

export async function sendAccountMail(tx: Queryable, p: AccountMailPayload): Promise<void> {
  await enqueue(tx, { kind: ACCOUNT_MAIL_JOB, payload: { ...p } })
}

/** The console path a link opens; the value travels in the fragment, which no server or Referer sees. */
export const linkUrl = (origin: string, purpose: LinkPurpose, value: string) => `${origin.replace(/\/+$/, '')}/console/link/${purpose}#${value}`

export function accountMailJob(deps: { db: Db; transport: MailTransport; publicUrl: () => string; linkKey: KeyObject }): JobHandler {
  return async (job) => {
    const p = job.payload as unknown as AccountMailPayload
    const [live] = await deps.db.query('select 1 from account_links where id = $1 and used_at is null and expires_at > now()', [p.linkId])
    if (!live) return // used or replaced meanwhile: nothing to send
    const lang = mailLanguage(p.language)
    const clean = { ...p, teamName: p.teamName && oneLine(p.teamName), inviter: p.inviter && oneLine(p.inviter) }
    const w = MAIL_STRINGS[lang].account(clean)[p.purpose]
    const url = linkUrl(deps.publicUrl(), p.purpose, linkValue(deps.linkKey, p.linkId))
    const s = MAIL_STRINGS[lang]
    const blocks: Block[] = [
      { kind: 'p', text: w.body },
      { kind: 'button', label: w.button, url },
      { kind: 'link', before: s.linkFallback, url },
      { kind: 'small', text: w.note },
    ]
    const team = clean.teamName || 'Envelope'
    const look = p.purpose === 'invite' && p.teamId ? await teamLook(deps.db, p.teamId, clean.teamName, deps.publicUrl()) : null
    const rendered = layout({ lang, s, subject: w.subject, preheader: w.body, teamName: team, heading: w.heading, blocks, footer: s.footer(team), brand: look?.brand })
    await deps.transport.send({ to: p.to, ...rendered, ...look?.sender, template: `account-${p.purpose}` })
  }
}
