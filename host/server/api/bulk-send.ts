/** Extension: bulk send, one document per row of a table (domain/template/bulk-send.ts). */
import { Hono } from 'hono'
import { z } from 'zod'
import { assertMayCreate } from '../auth/principal.js'
import { badRequest, issue } from '../errors.js'
import { teamActor } from '../domain/evidence/audit.js'
import { bulkSendReport, bulkSendStatus, previewBulkSend, readTable, startBulkSend } from '../domain/template/bulk-send.js'
import { clientOf, multipartPayload, principal, type Ctx } from './http.js'
import type { AppEnv, HostContext } from '../context.js'
import { EnvelopeId, NumericId, stringParam } from './schemas.js'
import type { V2Answer } from '../contract/api-v2.js'

const Column = z.string().min(1).max(255)

export const BulkSendPayload = z.object({
  templateId: EnvelopeId,
  mapping: z
    .object({
      recipients: z.array(z.object({ recipientId: NumericId, email: Column, name: Column.optional() }).strict()).min(1).max(100),
      prefill: z.array(z.object({ fieldId: NumericId, column: Column }).strict()).max(500).optional(),
      title: Column.optional(),
    })
    .strict(),
  /** Check the table and answer what would be sent, sending nothing. */
  dryRun: z.boolean().optional(),
})

/** Rows of a preview shown in full: enough to see that the columns are right. */
const PREVIEW_ROWS = 20

/** Nothing but the table: its columns are asked before a mapping is chosen. */
export const ColumnsPayload = z.object({}).strict()

/** The request's payload and its table (the `file` part). */
async function bulkRequest<S extends z.ZodType>(c: Ctx, schema: S, options: { optionalPayload?: boolean } = {}) {
  const { payload, form } = await multipartPayload(c, schema, options)
  const file = form.get('file')
  if (!file || typeof file === 'string') throw badRequest('the table is missing: send it as the file part (CSV or XLSX)', [issue(['file'], 'Required')])
  return { payload, table: await readTable(new Uint8Array(await file.arrayBuffer())) }
}

export function bulkSendRoutes(ctx: HostContext) {
  const r = new Hono<AppEnv>()

  r.post('/envelope/bulk-send/columns', async (c) => {
    assertMayCreate(principal(c))
    const { table } = await bulkRequest(c, ColumnsPayload, { optionalPayload: true })
    return c.json({ columns: table.columns, format: table.format, encoding: table.encoding, total: table.rows.length } satisfies V2Answer<'POST /envelope/bulk-send/columns'>)
  })

  r.post('/envelope/bulk-send', async (c) => {
    const p = principal(c)
    assertMayCreate(p)
    const { payload, table } = await bulkRequest(c, BulkSendPayload)
    if (payload.dryRun) {
      const { rows, allowed } = await previewBulkSend(ctx.db, p, payload.templateId, payload.mapping, table)
      const answer = {
        columns: table.columns,
        format: table.format,
        encoding: table.encoding,
        total: rows.length,
        sendable: rows.filter((x) => !x.problems.length).length,
        allowed,
        rows: rows.slice(0, PREVIEW_ROWS).map((x) => ({ row: x.row, ...x.input, problems: x.problems })),
        problems: rows.filter((x) => x.problems.length).map((x) => ({ row: x.row, problems: x.problems })),
      }
      return c.json(answer satisfies V2Answer<'POST /envelope/bulk-send'>)
    }
    const status = await startBulkSend(ctx.db, p, teamActor(p, clientOf(c)), payload.templateId, payload.mapping, table)
    return c.json({ ...status, format: table.format, encoding: table.encoding } satisfies V2Answer<'POST /envelope/bulk-send'>)
  })

  r.get('/envelope/bulk-send/:id', async (c) => {
    return c.json((await bulkSendStatus(ctx.db, principal(c), stringParam(c.req.param('id'), 'bulk send'))) satisfies V2Answer<'GET /envelope/bulk-send/:bulkSendId'>)
  })

  r.get('/envelope/bulk-send/:id/report', async (c) => {
    const id = stringParam(c.req.param('id'), 'bulk send')
    const csv = await bulkSendReport(ctx.db, principal(c), id)
    return c.body(csv, 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${id}-report.csv"; filename*=UTF-8''${id}-report.csv`,
      'Cache-Control': 'private, no-store',
    })
  })

  return r
}
