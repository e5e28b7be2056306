/**
 * The review before sending (docs/envelope-page.md, "Reviewing before sending"): what sending a
 * draft will e-mail, before anything is sent. The messages are the send's own: the jobs the send
 * will enqueue (notify.ts, `requestsOnSend`) rendered as the mail job renders them (job.ts,
 * `composeMail`), in the envelope's language, with the team's name, sender, Reply-To and look as
 * they are now, and the subject and message as the sender is editing them. A preview carries no
 * signing link: each stands in as the host's sign path ending in "…".
 */
import type { SendPreview } from '../../shared/console-contract.js'
import { SIGN_ROUTES } from '../../../src/protocol/index.js'
import type { Principal } from '../auth/principal.js'
import type { Queryable } from '../db/index.js'
import type { DocumentMeta } from '../domain/envelope/document-meta.js'
import { findEnvelope } from '../domain/envelope/lookup.js'
import { nextStatus } from '../domain/common/status.js'
import { composeMail } from './job.js'
import { requestsOnSend } from './notify.js'
import { teamLook } from './team-look.js'
import { fromHeader } from './transport.js'

export async function sendPreview(
  db: Queryable,
  p: Principal,
  envelopeId: string,
  change: Partial<Pick<DocumentMeta, 'subject' | 'message'>>,
  o: { origin: string; mailFrom: string },
): Promise<SendPreview> {
  // An envelope the caller does not see is 404, as everywhere; one that cannot be sent is refused as sending it would be.
  const e = await findEnvelope(db, p, envelopeId)
  nextStatus(e.type, e.status, 'distribute')
  const [team] = await db.query<{ name: string }>('select name from teams where id = $1', [e.team_id])
  const origin = o.origin.replace(/\/+$/, '')
  const look = await teamLook(db, e.team_id, team?.name, origin)
  const link = origin + SIGN_ROUTES.page.replace(':token', '…')
  const jobs = await requestsOnSend(db, e.id, change)
  const mails = (jobs ?? []).map((job) => {
    const mail = composeMail(job, look, link)
    return { recipientId: job.recipientId!, to: mail.to, subject: mail.subject, text: mail.text }
  })
  return { mailed: jobs !== null, from: fromHeader(o.mailFrom, look.sender), replyTo: look.sender.replyTo ?? null, mails }
}
