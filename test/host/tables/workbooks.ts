/**
 * XLSX workbooks for the table tests: one exported by LibreOffice Calc from `people-libreoffice.csv`
 * (`soffice --headless --convert-to xlsx:"Calc MS Excel 2007 XML" --infilter=CSV:44,34,76,1,,,,,,,,-1
 * people-libreoffice.csv`), and workbooks written here part by part (zipped with fflate) to reach
 * what producers write rarely and what an attacker writes on purpose.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { zipSync, type Zippable } from 'fflate'

export const LIBREOFFICE_WORKBOOK = new Uint8Array(readFileSync(path.join(import.meta.dirname, 'people-libreoffice.xlsx')))

const enc = (s: string) => new TextEncoder().encode(s)
const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'

export interface WorkbookParts {
  /** The first sheet's `<sheetData>` content. */
  sheet: string
  /** `<si>` elements of the shared strings, when any. */
  strings?: string
  /** `<numFmts>` and `<cellXfs>` of styles.xml, when any. */
  styles?: string
  /** Attributes of `<workbookPr>` (`date1904="1"`). */
  workbookPr?: string
  /** Another sheet, listed second but stored as sheet1.xml (the first listed is read). */
  second?: string
  /** Files added or replaced, by path. */
  extra?: Record<string, Uint8Array>
  /** zip level: 0 stores. */
  level?: 0 | 6 | 9
}

/** A workbook of the parts given, as a spreadsheet program lays it out. */
export function workbook(parts: WorkbookParts): Uint8Array {
  const sheets = [`<sheet name="People" sheetId="1" r:id="rIdA"/>`, ...(parts.second !== undefined ? [`<sheet name="Other" sheetId="2" r:id="rIdB"/>`] : [])]
  const rels = [
    `<Relationship Id="rIdA" Type="${REL}/worksheet" Target="worksheets/sheet2.xml"/>`,
    ...(parts.second !== undefined ? [`<Relationship Id="rIdB" Type="${REL}/worksheet" Target="/xl/worksheets/sheet1.xml"/>`] : []),
    ...(parts.strings !== undefined ? [`<Relationship Id="rIdS" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>`] : []),
    ...(parts.styles !== undefined ? [`<Relationship Id="rIdT" Type="${REL}/styles" Target="styles.xml"/>`] : []),
  ]
  const files: Zippable = {
    '[Content_Types].xml': enc('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
    '_rels/.rels': enc(`<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
    'xl/workbook.xml': enc(`<?xml version="1.0"?><workbook ${NS}>${parts.workbookPr ? `<workbookPr ${parts.workbookPr}/>` : ''}<sheets>${sheets.join('')}</sheets></workbook>`),
    'xl/_rels/workbook.xml.rels': enc(`<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join('')}</Relationships>`),
    'xl/worksheets/sheet2.xml': enc(`<?xml version="1.0"?><worksheet ${NS}><sheetData>${parts.sheet}</sheetData></worksheet>`),
    ...(parts.second !== undefined ? { 'xl/worksheets/sheet1.xml': enc(`<?xml version="1.0"?><worksheet ${NS}><sheetData>${parts.second}</sheetData></worksheet>`) } : {}),
    ...(parts.strings !== undefined ? { 'xl/sharedStrings.xml': enc(`<?xml version="1.0"?><sst ${NS}>${parts.strings}</sst>`) } : {}),
    ...(parts.styles !== undefined ? { 'xl/styles.xml': enc(`<?xml version="1.0"?><styleSheet ${NS}>${parts.styles}</styleSheet>`) } : {}),
    ...parts.extra,
  }
  return zipSync(files, { level: parts.level ?? 6 })
}

/** A row of inline strings, `cells` from column A. */
export const inlineRow = (row: number, cells: string[]) =>
  `<row r="${row}">${cells.map((c, i) => `<c r="${String.fromCharCode(65 + i)}${row}" t="inlineStr"><is><t>${c}</t></is></c>`).join('')}</row>`

/** The archive with one file's stated (uncompressed) size set to `size`, in its local and central headers. */
export function withStatedSize(zip: Uint8Array, name: string, size: number): Uint8Array {
  const out = zip.slice()
  const view = new DataView(out.buffer)
  const nameBytes = enc(name)
  const named = (at: number, nameAt: number, length: number) => length === nameBytes.length && nameBytes.every((b, i) => out[nameAt + i] === b) && at >= 0
  for (let at = 0; at + 46 < out.length; at++) {
    const sig = view.getUint32(at, true)
    if (sig === 0x04034b50 && named(at, at + 30, view.getUint16(at + 26, true))) view.setUint32(at + 22, size, true)
    if (sig === 0x02014b50 && named(at, at + 46, view.getUint16(at + 28, true))) view.setUint32(at + 24, size, true)
  }
  return out
}

/** The archive with a byte of one file's data changed (its checksum then differs). */
export function damaged(zip: Uint8Array, name: string): Uint8Array {
  const out = zip.slice()
  const view = new DataView(out.buffer)
  const nameBytes = enc(name)
  for (let at = 0; at + 30 < out.length; at++) {
    const length = view.getUint16(at + 26, true)
    if (view.getUint32(at, true) === 0x04034b50 && length === nameBytes.length && nameBytes.every((b, i) => out[at + 30 + i] === b)) {
      out[at + 30 + length + view.getUint16(at + 28, true) + 4]! ^= 0x01
      return out
    }
  }
  throw new Error(`${name} is not in the archive`)
}

/** The archive with the general-purpose flags of every file set to say "encrypted". */
export function markedEncrypted(zip: Uint8Array): Uint8Array {
  const out = zip.slice()
  const view = new DataView(out.buffer)
  for (let at = 0; at + 46 < out.length; at++) if (view.getUint32(at, true) === 0x02014b50) view.setUint16(at + 8, view.getUint16(at + 8, true) | 1, true)
  return out
}

/** Workbooks that must be refused, by what is wrong with them. */
export function hostileWorkbooks(): Record<string, Uint8Array> {
  const sheet = inlineRow(1, ['E']) + inlineRow(2, ['a@example.com'])
  const ok = workbook({ sheet })
  return {
    'XLSX: a sheet inflating past its stated size': withStatedSize(ok, 'xl/worksheets/sheet2.xml', 10),
    'XLSX: stated sizes past the budget': withStatedSize(ok, 'xl/worksheets/sheet2.xml', 0xfffffff0),
    'XLSX: encrypted': markedEncrypted(ok),
    'XLSX: a cell at column XFD': workbook({ sheet: '<row r="1"><c r="XFD1" t="inlineStr"><is><t>E</t></is></c></row>' }),
    'XLSX: entity definitions': workbook({ sheet, extra: { 'xl/worksheets/sheet2.xml': enc('<!DOCTYPE w [<!ENTITY a "aaaa">]><worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&a;</t></is></c></row></sheetData></worksheet>') } }),
    'XLSX: no workbook': zipSync({ 'a.txt': enc('E\na@example.com\n') }),
  }
}
