/**
 * The first sheet of an XLSX workbook as rows of text, as the spreadsheet shows them: shared and
 * inline strings, numbers to 15 significant digits, dates (a number in a date format) as
 * YYYY-MM-DD (with the time when it has one), TRUE/FALSE, a formula's last value. The archive is
 * read by zip.ts within an inflation budget; the XML by saxes, which expands no entity a file
 * defines. Caps on rows, columns and cell length are checked while reading, so a sheet that claims
 * cell XFD1048576 costs nothing.
 */
import { SaxesParser } from 'saxes'
import { readZipEntry, zipEntries, ZipRefused, type InflateBudget, type ZipEntry } from './zip.js'

/** Most bytes the workbook's files may inflate to, all together. */
export const XLSX_MAX_INFLATED = 64 * 1024 * 1024

export interface SheetRow {
  /** The row's number in the spreadsheet. */
  row: number
  cells: string[]
}

export interface SheetCaps {
  rows: number
  columns: number
  cell: number
}

/** An XLSX file starts as every ZIP archive does. */
export const isZip = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04

type Attributes = Record<string, string>
interface XmlHandlers {
  open?: (name: string, attributes: Attributes) => void
  text?: (text: string) => void
  close?: (name: string) => void
}

/** Walks an XML file's elements by their local names (a prefix such as `x:` dropped). */
function walkXml(bytes: Uint8Array, name: string, on: XmlHandlers): void {
  const local = (n: string) => n.slice(n.indexOf(':') + 1)
  const parser = new SaxesParser()
  parser.on('error', (err) => {
    throw new ZipRefused(`${name} is not well-formed XML (${err.message.split('\n')[0]})`)
  })
  if (on.open) parser.on('opentag', (node) => on.open!(local(node.name), node.attributes as Attributes))
  if (on.text) {
    parser.on('text', on.text)
    parser.on('cdata', on.text)
  }
  if (on.close) parser.on('closetag', (node) => on.close!(local(node.name)))
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new ZipRefused(`${name} is not UTF-8`)
  }
  parser.write(text).close()
}

/** A relationship target resolved against the folder of the file that names it. */
function resolvePath(base: string, target: string): string {
  const parts = target.startsWith('/') ? [] : base.split('/').slice(0, -1)
  for (const part of target.replace(/^\//, '').split('/')) {
    if (part === '..') parts.pop()
    else if (part && part !== '.') parts.push(part)
  }
  return parts.join('/')
}

/** A file's relationships: type (its last word, `sharedStrings`) and id to target path. */
function relationships(read: (path: string) => Uint8Array | null, of: string): { id: string; type: string; path: string }[] {
  const relsPath = resolvePath(of, `_rels/${of.split('/').pop()}.rels`)
  const bytes = read(relsPath)
  const found: { id: string; type: string; path: string }[] = []
  if (bytes)
    walkXml(bytes, relsPath, {
      open: (name, a) => {
        if (name === 'Relationship' && a.Target && a.TargetMode !== 'External')
          found.push({ id: a.Id ?? '', type: (a.Type ?? '').split('/').pop()!, path: resolvePath(of, a.Target) })
      },
    })
  return found
}

/** The text of each shared string (rich-text runs joined, phonetic readings left out). */
function sharedStrings(bytes: Uint8Array, caps: SheetCaps): string[] {
  const strings: string[] = []
  let current: string | null = null
  let inText = false
  let phonetic = 0
  walkXml(bytes, 'sharedStrings.xml', {
    open: (name) => {
      if (name === 'si') current = ''
      else if (name === 'rPh') phonetic++
      else if (name === 't') inText = true
    },
    text: (t) => {
      if (inText && !phonetic && current !== null && current.length < caps.cell) current += t
    },
    close: (name) => {
      if (name === 'si') {
        strings.push(current ?? '')
        current = null
      } else if (name === 'rPh') phonetic--
      else if (name === 't') inText = false
    },
  })
  return strings
}

/** Built-in number formats that show a date or a time. */
const DATE_FORMAT_IDS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 30, 36, 45, 46, 47, 50, 57])

/** Whether a format code shows a date: d, m, y, h or s outside quoted text, escapes and [colour]s. */
const isDateCode = (code: string) => /[dmyhs]/i.test(code.replace(/"[^"]*"|\\.|\[[^\]]*\]|_.|\*./g, '')) && !/^general$/i.test(code.trim())

/** Which cell styles (by index) show dates. */
function dateStyles(bytes: Uint8Array | null): Set<number> {
  const dates = new Set<number>()
  if (!bytes) return dates
  const custom = new Map<number, string>()
  let inCellXfs = false
  let index = 0
  walkXml(bytes, 'styles.xml', {
    open: (name, a) => {
      if (name === 'numFmt') custom.set(Number(a.numFmtId), a.formatCode ?? '')
      else if (name === 'cellXfs') inCellXfs = true
      else if (name === 'xf' && inCellXfs) {
        const id = Number(a.numFmtId ?? 0)
        if (DATE_FORMAT_IDS.has(id) || (custom.has(id) && isDateCode(custom.get(id)!))) dates.add(index)
        index++
      }
    },
    close: (name) => {
      if (name === 'cellXfs') inCellXfs = false
    },
  })
  return dates
}

/** A date serial number as the spreadsheet shows it (1900 or 1904 date system). */
function serialDate(serial: number, from1904: boolean): string {
  const ms = Math.round((serial - (from1904 ? 24107 : 25569)) * 86_400_000)
  const d = new Date(ms)
  if (!Number.isFinite(ms) || Number.isNaN(d.getTime())) return String(serial)
  const iso = d.toISOString()
  return ms % 86_400_000 === 0 ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`
}

/** `B12` → column 1 (from 0); NaN when it is not a reference. */
function columnOf(ref: string): number {
  const m = /^([A-Z]{1,3})\d+$/.exec(ref)
  if (!m) return NaN
  let n = 0
  for (const ch of m[1]!) n = n * 26 + ch.charCodeAt(0) - 64
  return n - 1
}

/** What a sheet's cells read as: its rows (empty ones left out), stopping past the caps. */
function sheetRows(bytes: Uint8Array, strings: string[], dates: Set<number>, from1904: boolean, caps: SheetCaps): SheetRow[] {
  const rows: SheetRow[] = []
  try {
    readSheet(bytes, strings, dates, from1904, caps, rows)
  } catch (err) {
    if (!(err instanceof StopReading)) throw err
  }
  return rows
}

/** Reads the sheet's rows into `rows`; StopReading one row past the cap. */
function readSheet(bytes: Uint8Array, strings: string[], dates: Set<number>, from1904: boolean, caps: SheetCaps, rows: SheetRow[]): void {
  let row: SheetRow | null = null
  let cell: { column: number; type: string; style: number; value: string; inline: string } | null = null
  let reading: 'v' | 't' | null = null
  let lastRow = 0
  const shown = (c: NonNullable<typeof cell>): string => {
    switch (c.type) {
      case 's':
        return strings[Number(c.value)] ?? ''
      case 'inlineStr':
        return c.inline
      case 'b':
        return c.value === '1' ? 'TRUE' : 'FALSE'
      case 'str':
      case 'e':
      case 'd':
        return c.value
      default: {
        const n = Number(c.value)
        if (c.value === '' || !Number.isFinite(n)) return c.value
        return dates.has(c.style) ? serialDate(n, from1904) : String(Number(n.toPrecision(15)))
      }
    }
  }
  walkXml(bytes, 'the sheet', {
    open: (name, a) => {
      if (name === 'row') {
        lastRow = a.r ? Number(a.r) : lastRow + 1
        row = { row: lastRow, cells: [] }
      } else if (name === 'c' && row) {
        const column = a.r ? columnOf(a.r) : row.cells.length
        if (!Number.isInteger(column)) throw new ZipRefused(`a cell of row ${row.row} has the reference "${a.r}"`)
        if (column >= caps.columns) throw new ZipRefused(`more than ${caps.columns} columns`)
        cell = { column, type: a.t ?? 'n', style: Number(a.s ?? 0), value: '', inline: '' }
      } else if (cell && (name === 'v' || name === 't')) reading = name
    },
    text: (t) => {
      if (!cell || !reading) return
      if (reading === 'v' && cell.value.length < caps.cell) cell.value += t
      else if (reading === 't' && cell.inline.length < caps.cell) cell.inline += t
    },
    close: (name) => {
      if (name === 'v' || name === 't') reading = null
      else if (name === 'c' && cell && row) {
        const text = shown(cell).trim().slice(0, caps.cell)
        while (row.cells.length < cell.column) row.cells.push('')
        row.cells[cell.column] = text
        cell = null
      } else if (name === 'row' && row) {
        if (row.cells.some((c) => c)) rows.push(row)
        row = null
        // One past the cap is enough for the caller to say there are too many.
        if (rows.length > caps.rows) throw new StopReading()
      }
    },
  })
}

class StopReading extends Error {}

/** The first sheet of the workbook in `bytes`, or ZipRefused saying why it cannot be read. */
export function readXlsxRows(bytes: Uint8Array, caps: SheetCaps): SheetRow[] {
  const entries = zipEntries(bytes)
  // Before anything inflates: what the parts that could be read say they hold, all together.
  const stated = [...entries.values()].filter((e) => /\.(xml|rels)$/.test(e.name)).reduce((sum, e) => sum + e.size, 0)
  if (stated > XLSX_MAX_INFLATED) throw new ZipRefused(`its parts inflate to more than the budget for a table (${XLSX_MAX_INFLATED / 1024 / 1024} MiB)`)
  const budget: InflateBudget = { left: XLSX_MAX_INFLATED }
  const read = (path: string) => {
    const entry: ZipEntry | undefined = entries.get(path)
    return entry ? readZipEntry(bytes, entry, budget) : null
  }
  const workbookPath = relationships(read, '').find((r) => r.type === 'officeDocument')?.path ?? 'xl/workbook.xml'
  const workbook = read(workbookPath)
  if (!workbook) throw new ZipRefused('it is not an XLSX workbook (it has no workbook part)')
  let firstSheet: string | null = null
  let from1904 = false
  walkXml(workbook, 'workbook.xml', {
    open: (name, a) => {
      if (name === 'sheet' && firstSheet === null) firstSheet = a['r:id'] ?? Object.entries(a).find(([k]) => k.endsWith(':id'))?.[1] ?? ''
      else if (name === 'workbookPr') from1904 = a.date1904 === '1' || a.date1904 === 'true'
    },
  })
  const rels = relationships(read, workbookPath)
  const sheetPath = rels.find((r) => r.id === firstSheet && r.type === 'worksheet')?.path
  const sheet = sheetPath ? read(sheetPath) : null
  if (!sheet) throw new ZipRefused('its first sheet is missing')
  const stringsBytes = read(rels.find((r) => r.type === 'sharedStrings')?.path ?? '')
  const strings = stringsBytes ? sharedStrings(stringsBytes, caps) : []
  const dates = dateStyles(read(rels.find((r) => r.type === 'styles')?.path ?? ''))
  return sheetRows(sheet, strings, dates, from1904, caps)
}
