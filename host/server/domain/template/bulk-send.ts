/**
 * Bulk send: one template, one document per row of a table (bulk-table.ts), each made and sent by
 * useTemplate, the operation of `/envelope/use` with `distributeDocument`. Rows are checked first
 * (an address that is not one, a row given twice: that row is refused, the others go); more rows
 * than the plan allows refuse the whole send before anything starts. The sending is `bulk-send`
 * jobs on the durable queue, a few rows each, so other teams' work goes between them; each row is
 * sent and marked sent in one transaction, so a process that dies halfway loses no row and sends
 * none twice.
 */
import type { Principal } from '../../auth/principal.js'
import type { Db, Queryable } from '../../db/index.js'
import { ApiError, badRequest, issue, notFound, type ApiIssue } from '../../errors.js'
import { enqueue, type Job } from '../../jobs/queue.js'
import type { Clock } from '../../jobs/clock.js'
import type { Actor } from '../evidence/audit.js'
import { newId } from '../common/ids.js'
import type { FieldRow, RecipientRow } from '../common/rows.js'
import { findEnvelope } from '../envelope/lookup.js'
import { FREE_PLAN_DOCUMENTS_PER_MONTH, usageMonth } from '../team/plans.js'
import { RecipientEmail } from '../common/inputs.js'
import { runHeavy } from '../../workers/heavy.js'
import { BULK_MAX_BYTES, csvCell, type BulkTable } from './bulk-table.js'
import { PREFILL_TYPES, useTemplate } from './templates.js'

export const BULK_SEND_JOB = 'bulk-send'
/** Rows one job sends before it hands the rest to the next: other teams' jobs run between. */
const ROWS_PER_JOB = 10
/** On the embedded engine, a row's work is followed by a pause this many times as long. */
const EMBEDDED_PAUSE = 2
/** Rows one bulk send may have, by plan (the free plan: what is left of its month's documents). */
const PLAN_ROWS: Record<string, number> = { individual: 100, team: 1000, enterprise: 10_000 }
/** A row's address is taken as `/envelope/use` takes one. */
const isAddress = (email: string) => RecipientEmail.safeParse(email).success && email !== ''

/** Which column gives what: each role's address (and name), fields filled in ahead, the title. */
export interface BulkMapping {
  recipients: { recipientId: number; email: string; name?: string | undefined }[]
  prefill?: { fieldId: number; column: string }[] | undefined
  title?: string | undefined
}

/** What one row gives the template (useTemplate's input, without the template). */
export interface RowInput {
  recipients: { id: number; email: string; name?: string }[]
  prefillFields?: { id: number; type: string; value: string | string[] }[]
  title?: string
}

/** Why a row would be refused: a code the console words in its language, what it names, and the sentence in English. */
export type RowProblem =
  | { code: 'NOT_AN_ADDRESS'; column: string; value: string; message: string }
  | { code: 'NO_ADDRESS'; column: string; message: string }
  | { code: 'SAME_AS_ROW'; row: number; message: string }

export interface PlannedRow {
  row: number
  input: RowInput
  problems: RowProblem[]
}

/** The prefill name (PREFILL_TYPES') of each field type that can be filled in ahead. */
const PREFILL_NAMES: Record<string, string> = Object.fromEntries(Object.entries(PREFILL_TYPES).map(([name, type]) => [type, name]))

/** The mapping checked against the template and the table's columns: 400 naming what does not fit. */
function checkMapping(mapping: BulkMapping, table: BulkTable, recipients: RecipientRow[], fields: FieldRow[]): void {
  const issues: ApiIssue[] = []
  const column = (name: string | undefined, path: (string | number)[]) => {
    if (name !== undefined && !table.columns.includes(name)) issues.push(issue(path, `The table has no column "${name}" (it has ${table.columns.map((c) => `"${c}"`).join(', ')})`))
  }
  mapping.recipients.forEach((m, i) => {
    if (!recipients.some((r) => r.id === m.recipientId)) issues.push(issue(['payload', 'mapping', 'recipients', i, 'recipientId'], `Recipient ${m.recipientId} is not on this template`))
    column(m.email, ['payload', 'mapping', 'recipients', i, 'email'])
    column(m.name, ['payload', 'mapping', 'recipients', i, 'name'])
  })
  for (const r of recipients)
    if (!r.email && !mapping.recipients.some((m) => m.recipientId === r.id)) issues.push(issue(['payload', 'mapping', 'recipients'], `The role "${r.name}" (recipient ${r.id}) has no address on the template: map a column to it`))
  mapping.prefill?.forEach((m, i) => {
    const f = fields.find((x) => x.id === m.fieldId)
    if (!f) issues.push(issue(['payload', 'mapping', 'prefill', i, 'fieldId'], `Field ${m.fieldId} is not on this template`))
    else if (!PREFILL_NAMES[f.type]) issues.push(issue(['payload', 'mapping', 'prefill', i, 'fieldId'], `A ${f.type.toLowerCase()} field cannot be filled in ahead`))
    column(m.column, ['payload', 'mapping', 'prefill', i, 'column'])
  })
  column(mapping.title, ['payload', 'mapping', 'title'])
  if (issues.length) throw badRequest(`the mapping does not fit: ${issues[0]!.message}`, issues)
}

/** A row's problems in one English sentence (the report's reason). */
const sentence = (problems: RowProblem[]) => problems.map((x) => x.message).join('; ')

/** Each row as useTemplate will take it, with what is wrong with it (an address, a row given twice). */
function planRows(mapping: BulkMapping, table: BulkTable, fields: FieldRow[]): PlannedRow[] {
  const seen = new Map<string, number>()
  return table.rows.map(({ row, cells }) => {
    const problems: RowProblem[] = []
    const recipients = mapping.recipients.map((m) => {
      const email = cells[m.email]!.trim().toLowerCase()
      if (!isAddress(email))
        problems.push(
          email
            ? { code: 'NOT_AN_ADDRESS', column: m.email, value: email, message: `"${email}" in ${m.email} is not an e-mail address` }
            : { code: 'NO_ADDRESS', column: m.email, message: `${m.email} is empty` },
        )
      return { id: m.recipientId, email, ...(m.name ? { name: cells[m.name]! } : {}) }
    })
    const prefillFields = (mapping.prefill ?? []).flatMap((m) => {
      const value = cells[m.column]!
      if (!value) return []
      const type = fields.find((f) => f.id === m.fieldId)!.type
      return [{ id: m.fieldId, type: PREFILL_NAMES[type]!, value: type === 'CHECKBOX' ? value.split(';').map((v) => v.trim()).filter(Boolean) : value }]
    })
    const title = mapping.title ? cells[mapping.title]! : ''
    const input: RowInput = { recipients, ...(prefillFields.length ? { prefillFields } : {}), ...(title ? { title: title.slice(0, 255) } : {}) }
    const key = JSON.stringify(input)
    const first = seen.get(key)
    if (first !== undefined) problems.push({ code: 'SAME_AS_ROW', row: first, message: `the same as row ${first}` })
    else seen.set(key, row)
    return { row, input, problems }
  })
}

/**
 * The table in `bytes` (bulk-table.ts), read in a heavy-work thread: a wide 5 MiB table takes a
 * few hundred milliseconds, which no other request waits for. Its size is checked before.
 */
export async function readTable(bytes: Uint8Array): Promise<BulkTable> {
  if (bytes.byteLength > BULK_MAX_BYTES) throw new ApiError(413, 'PAYLOAD_TOO_LARGE', `the table is larger than ${BULK_MAX_BYTES} bytes`)
  return runHeavy('table', { bytes }, { failure: (why) => new ApiError(400, 'INVALID_TABLE', `the table cannot be read: ${why}`) })
}

/** How many documents this bulk send may make: the plan's rows, or what is left of the free plan's month. */
async function rowsAllowed(db: Queryable, p: Principal): Promise<number> {
  if (p.plan !== 'free') return PLAN_ROWS[p.plan] ?? PLAN_ROWS.team!
  const [used] = await db.query<{ documents: number }>('select documents from team_usage where team_id = $1 and month = $2', [p.teamId, usageMonth()])
  return Math.max(0, FREE_PLAN_DOCUMENTS_PER_MONTH - (used?.documents ?? 0))
}

/** The template's rows and what each would send; nothing is written. */
export async function previewBulkSend(db: Queryable, p: Principal, templateId: string, mapping: BulkMapping, table: BulkTable): Promise<{ rows: PlannedRow[]; allowed: number }> {
  const template = await findEnvelope(db, p, templateId)
  if (template.type !== 'TEMPLATE') throw new ApiError(400, 'NOT_A_TEMPLATE', `${template.id} is a document; only a template can be sent to many`)
  const recipients = await db.query<RecipientRow>('select * from recipients where envelope_id = $1', [template.id])
  const fields = await db.query<FieldRow>('select * from fields where envelope_id = $1', [template.id])
  checkMapping(mapping, table, recipients, fields)
  return { rows: planRows(mapping, table, fields), allowed: await rowsAllowed(db, p) }
}

/**
 * Starts a bulk send: every row written (those with problems as REFUSED, with why), the first job
 * queued, in one transaction. 400 `BULK_OVER_PLAN` when the rows to send are more than the plan allows.
 */
export function startBulkSend(db: Db, p: Principal, actor: Actor, templateId: string, mapping: BulkMapping, table: BulkTable): Promise<BulkSendStatus> {
  return db.transaction(async (tx) => {
    const { rows, allowed } = await previewBulkSend(tx, p, templateId, mapping, table)
    const sending = rows.filter((r) => !r.problems.length).length
    if (!sending) throw badRequest('no row can be sent: each has a problem', rows.slice(0, 20).map((r) => issue(['file', r.row], sentence(r.problems))))
    if (sending > allowed) throw new ApiError(400, 'BULK_OVER_PLAN', `the ${p.plan} plan allows ${allowed} documents in this bulk send and the table has ${sending} rows to send`)
    const id = newId.bulkSend()
    await tx.query('insert into bulk_sends (id, team_id, template_id, actor, token_id, total) values ($1, $2, $3, $4, $5, $6)', [id, p.teamId, templateId, JSON.stringify(actor), p.tokenId, rows.length])
    await tx.query(
      `insert into bulk_send_rows (bulk_send_id, row_number, input, status, reason)
       select $1, r.n, r.input, case when r.reason is null then 'PENDING' else 'REFUSED' end, r.reason
       from unnest($2::int[], $3::jsonb[], $4::text[]) as r (n, input, reason)`,
      [id, rows.map((r) => r.row), rows.map((r) => JSON.stringify(r.input)), rows.map((r) => (r.problems.length ? sentence(r.problems) : null))],
    )
    await enqueue(tx, { kind: BULK_SEND_JOB, payload: { teamId: p.teamId, bulkSendId: id }, orderingKey: `bulk-send:${id}` })
    return bulkSendStatus(tx, p, id)
  })
}

export interface BulkSendStatus {
  id: string
  templateId: string
  status: 'RUNNING' | 'DONE'
  total: number
  sent: number
  refused: number
  pending: number
  createdAt: string
  finishedAt: string | null
}

/** A bulk send of the caller's team, with its counts. */
export async function bulkSendStatus(db: Queryable, p: Principal, id: string): Promise<BulkSendStatus> {
  const [row] = await db.query<BulkSendStatus & { created_at: Date; finished_at: Date | null }>(
    `select b.id, b.template_id as "templateId", b.status, b.total, b.created_at, b.finished_at, c.sent, c.refused, c.pending
     from bulk_sends b,
       lateral (select count(*) filter (where r.status = 'SENT')::int as sent, count(*) filter (where r.status = 'REFUSED')::int as refused,
                  count(*) filter (where r.status = 'PENDING')::int as pending
                from bulk_send_rows r where r.bulk_send_id = b.id) c
     where b.id = $1 and b.team_id = $2`,
    [id, p.teamId],
  )
  if (!row) throw notFound('bulk send')
  const { created_at, finished_at, ...rest } = row
  return { ...rest, createdAt: new Date(created_at).toISOString(), finishedAt: finished_at && new Date(finished_at).toISOString() }
}

/** The report: a row per row of the table, what became of it, as CSV a spreadsheet opens safely. */
export async function bulkSendReport(db: Queryable, p: Principal, id: string): Promise<string> {
  const [own] = await db.query('select 1 from bulk_sends where id = $1 and team_id = $2', [id, p.teamId])
  if (!own) throw notFound('bulk send')
  const rows = await db.query<{ row_number: number; input: RowInput; status: string; envelope_id: string | null; reason: string | null }>(
    'select row_number, input, status, envelope_id, reason from bulk_send_rows where bulk_send_id = $1 order by row_number',
    [id],
  )
  const lines = [['row', 'status', 'recipients', 'document', 'reason'].map(csvCell).join(',')]
  for (const r of rows) lines.push([r.row_number, r.status, (r.input.recipients ?? []).map((x) => x.email).join(' '), r.envelope_id, r.reason].map(csvCell).join(','))
  return `${lines.join('\r\n')}\r\n`
}

/** `bulk-send` jobs: up to ROWS_PER_JOB rows, each sent and marked in its own transaction; then the next job, or the end. */
export function bulkSendJob(db: Db, clock: Clock) {
  return async (job: Job) => {
    const id = String(job.payload.bulkSendId)
    const [bulk] = await db.query<{ team_id: string; template_id: string; actor: Actor; token_id: string; plan: string }>(
      'select b.team_id, b.template_id, b.actor, b.token_id, t.plan from bulk_sends b join teams t on t.id = b.team_id where b.id = $1',
      [id],
    )
    if (!bulk) return
    // The team's own principal at its plan now: the rows were checked against the starter's view when it began.
    const p: Principal = { kind: 'api', teamId: bulk.team_id, plan: bulk.plan, tokenId: bulk.token_id }
    for (let n = 0; n < ROWS_PER_JOB; n++) {
      const started = performance.now()
      if (!(await sendNextRow(db, p, bulk, id, clock.now()))) return finish(db, id)
      // The embedded engine runs every team's statements on this one thread, and each row brings
      // an e-mail's work after it: a row is followed by a pause twice its length, so a bulk send
      // and its e-mails leave most of the thread to everyone else.
      if (db.engine === 'pglite') await new Promise((resolve) => setTimeout(resolve, EMBEDDED_PAUSE * (performance.now() - started)))
    }
    await db.transaction((tx) => enqueue(tx, { kind: BULK_SEND_JOB, payload: { teamId: bulk.team_id, bulkSendId: id }, orderingKey: `bulk-send:${id}` }))
  }
}

/** A row the template refused as it was sent: its transaction is undone and the row says why. */
class RowRefused extends Error {
  constructor(
    readonly row: number,
    reason: string,
  ) {
    super(reason)
  }
}

/** Sends the first pending row, marking it in the same transaction; false when none is left. */
async function sendNextRow(db: Db, p: Principal, bulk: { template_id: string; actor: Actor }, id: string, now: Date): Promise<boolean> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.query<{ row_number: number; input: RowInput }>(
        "select row_number, input from bulk_send_rows where bulk_send_id = $1 and status = 'PENDING' order by row_number limit 1 for update skip locked",
        [id],
      )
      if (!row) return false
      const sent = await useTemplate(tx, p, bulk.actor, { ...row.input, envelopeId: bulk.template_id, distributeDocument: true }, [], now).catch((err: unknown) => {
        // A refusal (a prefilled value that is not an option, the template gone): the others go on.
        throw err instanceof ApiError ? new RowRefused(row.row_number, err.message) : err
      })
      await tx.query("update bulk_send_rows set status = 'SENT', envelope_id = $3 where bulk_send_id = $1 and row_number = $2", [id, row.row_number, sent.envelope.id])
      return true
    })
  } catch (err) {
    if (!(err instanceof RowRefused)) throw err
    await db.query("update bulk_send_rows set status = 'REFUSED', reason = $3 where bulk_send_id = $1 and row_number = $2 and status = 'PENDING'", [id, err.row, err.message])
    return true
  }
}

async function finish(db: Db, id: string): Promise<void> {
  await db.query("update bulk_sends set status = 'DONE', finished_at = now() where id = $1 and status = 'RUNNING'", [id])
}
