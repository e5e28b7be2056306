/**
 * The answers of bulk send (api/bulk-send.ts), declared once as the resources of answers.ts are
 * (which registers them); the domain's BulkSendStatus is tied to them by test/host/bulk-send.test.ts.
 */
import { z } from 'zod'

const int = z.int()
const date = z.iso.datetime({ offset: true })
const encoding = z.enum(['utf-8', 'windows-1252']).describe('How a CSV table was read: UTF-8, or Windows-1252 when it was not valid UTF-8 (an XLSX workbook: utf-8)')
const format = z.enum(['csv', 'xlsx']).describe("The table's format: an XLSX workbook (its first sheet) or CSV")

/** A table's columns, read before any mapping is chosen. */
export const BulkTableAnswer = z.object({
  columns: z.array(z.string()).describe('the names in the first row, in order (an empty one reads "Column N")'),
  format,
  encoding,
  total: int.describe('rows under the header, empty rows left out'),
})

/** Why a row would be refused: a code, what it names, and the sentence in English. */
const RowProblem = z.discriminatedUnion('code', [
  z.object({ code: z.literal('NOT_AN_ADDRESS'), column: z.string(), value: z.string(), message: z.string() }),
  z.object({ code: z.literal('NO_ADDRESS'), column: z.string(), message: z.string() }),
  z.object({ code: z.literal('SAME_AS_ROW'), row: int.describe('the earlier row it repeats'), message: z.string() }),
])

/** A row as it would be sent: the template's input. */
const PlannedRow = z.object({
  row: int.describe('the row as a spreadsheet shows it (the header is row 1)'),
  recipients: z.array(z.object({ id: int, email: z.string(), name: z.string().optional() })).optional(),
  prefillFields: z.array(z.object({ id: int, type: z.string(), value: z.union([z.string(), z.array(z.string())]) })).optional(),
  title: z.string().optional(),
  problems: z.array(RowProblem).describe('why the row would be refused; empty when it goes'),
})

export const BulkSendPreviewAnswer = z.object({
  columns: z.array(z.string()),
  format,
  encoding,
  total: int,
  sendable: int.describe('rows without problems'),
  allowed: int.describe('how many documents the plan allows this bulk send'),
  rows: z.array(PlannedRow).describe('the first 20 rows'),
  problems: z.array(z.object({ row: int, problems: z.array(RowProblem) })).describe('every row with problems'),
})

export const BulkSendAnswer = z.object({
  id: z.string(),
  templateId: z.string(),
  status: z.enum(['RUNNING', 'DONE']),
  total: int,
  sent: int,
  refused: int,
  pending: int,
  createdAt: date,
  finishedAt: date.nullable(),
})

export const BulkSendStartedAnswer = BulkSendAnswer.extend({ format, encoding })

export type BulkTableAnswer = z.output<typeof BulkTableAnswer>
export type BulkSendPreviewAnswer = z.output<typeof BulkSendPreviewAnswer>
export type BulkSendAnswer = z.output<typeof BulkSendAnswer>
export type BulkSendStartedAnswer = z.output<typeof BulkSendStartedAnswer>
