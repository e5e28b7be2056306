/**
 * A bulk send's table: an XLSX workbook's first sheet (tables/xlsx.ts), or a CSV a person exported
 * from a spreadsheet. The first row names the columns, each later row is one document. CSV is read
 * with csv-parse (quoted cells, line breaks within quotes, `,` or `;` as spreadsheets in many
 * languages write them) within caps checked before the work. Its text is UTF-8 (a byte-order mark
 * is dropped); a file that is not valid UTF-8 is read as Windows-1252, what older spreadsheets
 * save, and the answer says so.
 */
import { parse } from 'csv-parse/sync'
import { ApiError, badRequest, issue } from '../../errors.js'
import { isZip, readXlsxRows, type SheetRow } from '../../tables/xlsx.js'
import { ZipRefused } from '../../tables/zip.js'

/** The largest file taken: far more than 10,000 rows of names and addresses. */
export const BULK_MAX_BYTES = 5 * 1024 * 1024
/** Rows of one file, whatever the plan allows. */
export const BULK_MAX_ROWS = 10_000
const MAX_COLUMNS = 200
const MAX_CELL = 1000

export interface BulkTable {
  columns: string[]
  /** Each data row with its number as a spreadsheet shows it (the header is row 1). */
  rows: { row: number; cells: Record<string, string> }[]
  format: 'csv' | 'xlsx'
  encoding: 'utf-8' | 'windows-1252'
}

const refuse = (why: string) => new ApiError(400, 'INVALID_TABLE', `the table cannot be read: ${why}`, [issue(['file'], why)])

function decode(bytes: Uint8Array): { text: string; encoding: BulkTable['encoding'] } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes), encoding: 'utf-8' }
  } catch {
    return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252' }
  }
}

/** `;` when the header line has more of them than `,` (a spreadsheet set to a language with decimal commas). */
const delimiterOf = (text: string) => {
  const first = text.slice(0, text.search(/\r?\n|$/))
  return (first.match(/;/g)?.length ?? 0) > (first.match(/,/g)?.length ?? 0) ? ';' : ','
}

/** The rows of a CSV file and how its text was read. */
function csvRows(bytes: Uint8Array): { rows: SheetRow[]; encoding: BulkTable['encoding'] } {
  const { text, encoding } = decode(bytes)
  try {
    const records: string[][] = parse(text, {
      delimiter: delimiterOf(text),
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
      max_record_size: MAX_COLUMNS * MAX_CELL,
      to: BULK_MAX_ROWS + 2,
    })
    return { rows: records.map((cells, i) => ({ row: i + 1, cells })), encoding }
  } catch (err) {
    throw refuse(err instanceof Error ? err.message.replace(/^Invalid (?:Record|Opening|Closing)[^:]*:\s*/i, '') : 'it is not CSV')
  }
}

/** The rows of an XLSX workbook's first sheet. */
function xlsxRows(bytes: Uint8Array): SheetRow[] {
  try {
    return readXlsxRows(bytes, { rows: BULK_MAX_ROWS + 1, columns: MAX_COLUMNS, cell: MAX_CELL })
  } catch (err) {
    if (err instanceof ZipRefused) throw refuse(err.message)
    throw err
  }
}

/**
 * The table in `bytes` (XLSX when it is a ZIP archive, else CSV), or 400 `INVALID_TABLE` saying
 * what is wrong (413 past BULK_MAX_BYTES), in this thread: readTable (bulk-send.ts) runs it in a
 * heavy-work thread.
 */
export function readBulkTableHere(bytes: Uint8Array): BulkTable {
  if (bytes.byteLength > BULK_MAX_BYTES) throw new ApiError(413, 'PAYLOAD_TOO_LARGE', `the table is larger than ${BULK_MAX_BYTES} bytes`)
  const format = isZip(bytes) ? 'xlsx' : 'csv'
  const { rows: records, encoding } = format === 'xlsx' ? { rows: xlsxRows(bytes), encoding: 'utf-8' as const } : csvRows(bytes)
  const [header, ...data] = records
  if (!header || !header.cells.some((c) => c)) throw refuse('the first row must name the columns')
  if (header.cells.length > MAX_COLUMNS) throw refuse(`more than ${MAX_COLUMNS} columns`)
  if (data.length > BULK_MAX_ROWS) throw badRequest(`at most ${BULK_MAX_ROWS} rows per file`, [issue(['file'], `At most ${BULK_MAX_ROWS} rows`)])
  const columns = header.cells.map((c, i) => c || `Column ${i + 1}`)
  const twice = columns.find((c, i) => columns.indexOf(c) !== i)
  if (twice) throw refuse(`two columns are named "${twice}"`)
  // A CSV row's number counts from its header (row 1); a sheet's is the one the spreadsheet shows.
  const rows = data
    .map((r) => ({ row: r.row, cells: Object.fromEntries(columns.map((c, n) => [c, (r.cells[n] ?? '').slice(0, MAX_CELL)])) }))
    .filter((r) => Object.values(r.cells).some((v) => v))
  return { columns, rows, format, encoding }
}

/**
 * A cell of a CSV a spreadsheet will open: quoted, and a value that would start a formula
 * (`=`, `+`, `-`, `@`, a tab or a carriage return first) made text with a leading apostrophe.
 */
export function csvCell(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value)
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text
  return `"${safe.replace(/"/g, '""')}"`
}
