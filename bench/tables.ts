/**
 * What reading a bulk send's table costs (in the heavy-work thread that reads it): the largest
 * table a send takes, 10,000 rows of five columns, as CSV (the baseline) and as an XLSX workbook
 * with shared strings, measured in one run; and how soon a hostile workbook is refused: one part
 * stating 1 KiB while it inflates to 64 MiB, and one whose parts state 4 GiB. Target: the workbook
 * within 4x of the CSV, each refusal under 100 ms.
 *   npx tsx bench/tables.ts
 */
import { readBulkTableHere } from '../host/server/domain/template/bulk-table.js'
import { withStatedSize, workbook } from '../test/host/tables/workbooks.js'

const ROWS = 10_000
const RUNS = 5
const header = ['Name', 'E-mail', 'Reference', 'Title', 'Amount']
const cells = (n: number) => [`Client ${n}`, `client${n}@example.com`, `REF-${n}`, `Lease ${n}, signed`, String(n * 1.5)]

const csv = new TextEncoder().encode([header, ...Array.from({ length: ROWS }, (_, i) => cells(i + 1))].map((r) => r.map((c) => `"${c}"`).join(',')).join('\r\n'))
// Text in shared strings (as spreadsheet programs write it), numbers inline.
const strings: string[] = []
const index = (text: string) => strings.push(`<si><t>${text}</t></si>`) - 1
const row = (r: number, values: string[]) =>
  `<row r="${r}">${values.map((v, c) => (c === 4 && r > 1 ? `<c r="${'ABCDE'[c]}${r}"><v>${v}</v></c>` : `<c r="${'ABCDE'[c]}${r}" t="s"><v>${index(v)}</v></c>`)).join('')}</row>`
const sheet = [row(1, header), ...Array.from({ length: ROWS }, (_, i) => row(i + 2, cells(i + 1)))].join('')
const xlsx = workbook({ sheet, strings: strings.join('') })

/** The median of RUNS reads, in ms. */
function median(bytes: Uint8Array): number {
  const times: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now()
    const table = readBulkTableHere(bytes)
    times.push(performance.now() - t0)
    if (table.rows.length !== ROWS) throw new Error(`read ${table.rows.length} rows`)
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!
}

/** How long until the workbook is refused, in ms. */
function refusal(bytes: Uint8Array): number {
  const t0 = performance.now()
  try {
    readBulkTableHere(bytes)
  } catch {
    return performance.now() - t0
  }
  throw new Error('not refused')
}

const csvMs = median(csv)
const xlsxMs = median(xlsx)
console.log(`10,000 rows as CSV (${(csv.byteLength / 1024).toFixed(0)} KiB): ${csvMs.toFixed(0)} ms (baseline)`)
console.log(`10,000 rows as XLSX (${(xlsx.byteLength / 1024).toFixed(0)} KiB, shared strings): ${xlsxMs.toFixed(0)} ms, ${(xlsxMs / csvMs).toFixed(2)}x the CSV; target <= 4x: ${xlsxMs <= 4 * csvMs ? 'met' : 'NOT MET'}`)
const bomb = workbook({ sheet: `${row(1, header)}<row r="2"><c r="A2" t="inlineStr"><is><t>${'x'.repeat(64 * 1024 * 1024)}</t></is></c></row>`, level: 9 })
const lying = refusal(withStatedSize(bomb, 'xl/worksheets/sheet2.xml', 1024))
const stated = refusal(withStatedSize(xlsx, 'xl/worksheets/sheet2.xml', 0xfffffff0))
console.log(`a part stating 1 KiB that inflates to 64 MiB (${(bomb.byteLength / 1024).toFixed(0)} KiB file): refused in ${lying.toFixed(1)} ms; target < 100 ms: ${lying < 100 ? 'met' : 'NOT MET'}`)
console.log(`parts stating 4 GiB: refused in ${stated.toFixed(1)} ms; target < 100 ms: ${stated < 100 ? 'met' : 'NOT MET'}`)
