/**
 * The one-time code a recipient asks for on the signing page (domain/signing/proof-binding.ts), sent
 * by a job on the one queue in the document's language. The job carries the code row's id; the
 * code is derived here with the host's key, so it is in no job payload, table or log. A code
 * used, expired or replaced before the job runs is not sent. A code to a document's recipient that
 * the transport took is recorded as RECIPIENT_AUTH_CODE_SENT with the job's end (as mail/job.ts
 * records EMAIL_SENT); a direct link visitor's is not: they are no document's recipient yet.
 */
import type { KeyObject } from 'node:crypto'
import type { Db } from '../db/index.js'
import { aboutRecipient, auditRow } from '../domain/evidence/audit.js'
import { codeValue } from '../domain/signing/proof-binding.js'
import type { JobHandler } from '../jobs/queue.js'
import { MAIL_STRINGS, mailLanguage } from './i18n.js'
import { layout, oneLine } from './templates.js'
import { teamLook } from './team-look.js'
import type { MailTransport } from './transport.js'

export function recipientCodeJob(deps: { db: Db; transport: MailTransport; linkKey: KeyObject; publicUrl: () => string }): JobHandler {
  return async (job, end) => {
    const { codeId } = job.payload as { codeId: string }
    const [row] = await deps.db.query<{
      recipient_id: number
      email: string
      name: string
      role: string
      purpose: string
      visitor: boolean
      envelope_id: string
      envelope_type: string
      title: string
      document_meta: { language?: string } | null
      team: string | null
      team_id: string
    }>(
      `select r.id as recipient_id, coalesce(c.email, r.email) as email, case when c.email is null then r.name else '' end as name, r.role, c.purpose,
         c.email is not null as visitor, e.id as envelope_id, e.type as envelope_type, e.title, e.document_meta, t.name as team, e.team_id
       from recipient_auth_codes c join recipients r on r.id = c.recipient_id join envelopes e on e.id = r.envelope_id
       left join teams t on t.id = e.team_id
       where c.id = $1 and c.used_at is null and c.expires_at > now()`,
      [codeId],
    )
    if (!row) return
    const lang = mailLanguage(row.document_meta?.language)
    const s = MAIL_STRINGS[lang]
    const w = s.code
    const team = oneLine(row.team || 'Envelope')
    const code = codeValue(deps.linkKey, codeId)
    const look = await teamLook(deps.db, row.team_id, row.team, deps.publicUrl())
    const rendered = layout({
      lang,
      s,
      subject: w.subject,
      preheader: w.body(oneLine(row.title)),
      teamName: team,
      heading: w.subject,
      blocks: [
        { kind: 'p', text: s.greeting(row.name?.trim() || null) },
        { kind: 'p', text: w.body(oneLine(row.title)) },
        { kind: 'code', text: code },
        { kind: 'small', text: w.note },
      ],
      footer: s.footer(team),
      brand: look.brand,
    })
    // From the same sender, in the same look, as the signing request, whom the recipient knows. No
    // team or envelope is named on the message: nothing files the code where the team's people read.
    // Its recipient is, so that a retention purge finds the stored copy (domain/retention/purge-copies.ts).
    await deps.transport.send({ to: row.email, ...rendered, ...look.sender, template: 'recipient-code', recipientId: row.recipient_id })
    if (row.visitor || row.envelope_type !== 'DOCUMENT') return
    const r = { id: row.recipient_id, name: row.name, email: row.email, role: row.role }
    const who = { name: r.name, email: r.email, recipientId: r.id, tokenId: null, ipAddress: null, userAgent: null }
    end.insert('audit_logs', auditRow({ id: row.envelope_id, team_id: row.team_id }, 'RECIPIENT_AUTH_CODE_SENT', who, { ...aboutRecipient(r), purpose: row.purpose }))
  }
}
