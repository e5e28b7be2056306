/**
 * A bulk send's table from an XLSX workbook (host/server/tables/): what spreadsheet programs write
 * (LibreOffice's export; shared and inline strings, rich text, dates in both date systems, formulas'
 * values, sparse rows) read as the spreadsheet shows it, and what an attacker writes (a file that
 * inflates past what it states or past the budget, entities, a cell at column XFD, too many rows,
 * encryption, a zip that is no workbook) refused with INVALID_TABLE, quickly. No database.
 */
import { zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { readBulkTableHere } from '../../host/server/domain/template/bulk-table.js'
import { XLSX_MAX_INFLATED } from '../../host/server/tables/xlsx.js'
import { damaged, inlineRow, LIBREOFFICE_WORKBOOK, markedEncrypted, withStatedSize, workbook } from './tables/workbooks.js'

const refusal = (why: string | RegExp) => expect.objectContaining({ status: 400, code: 'INVALID_TABLE', message: typeof why === 'string' ? expect.stringContaining(why) : expect.stringMatching(why) })

describe('a bulk send table from an XLSX workbook', () => {
  it("reads LibreOffice's export as Calc shows it: text, numbers, dates, a formula's value", () => {
    const table = readBulkTableHere(LIBREOFFICE_WORKBOOK)
    expect(table).toMatchObject({ format: 'xlsx', encoding: 'utf-8', columns: ['Client e-mail', 'Client name', 'Amount', 'Start', 'Total', 'Note'] })
    expect(table.rows).toEqual([
      { row: 2, cells: { 'Client e-mail': 'ann@example.com', 'Client name': 'Ann Émile', Amount: '12.5', Start: '2026-12-01', Total: '25', Note: 'a, b' } },
      { row: 3, cells: { 'Client e-mail': 'bob@example.com', 'Client name': 'Bob', Amount: '3', Start: '2027-01-15', Total: '6', Note: '2' } },
    ])
  })

  it('reads every kind of cell: shared (rich text, phonetic left out), inline, numbers, booleans, errors, formulas, entities and CDATA', () => {
    const bytes = workbook({
      strings: '<si><t>Name</t></si><si><r><t>E-</t></r><r><rPr><b/></rPr><t>mail</t></r></si><si><t>漢字</t><rPh sb="0" eb="2"><t>かんじ</t></rPh></si>',
      sheet: [
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><t>Amount</t></is></c><c r="D1" t="inlineStr"><is><t>Ok</t></is></c><c r="E1" t="inlineStr"><is><t>Calc</t></is></c></row>',
        '<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2" t="inlineStr"><is><t>a&amp;b@example.com</t></is></c><c r="C2"><v>0.30000000000000004</v></c><c r="D2" t="b"><v>1</v></c><c r="E2" t="e"><v>#DIV/0!</v></c></row>',
        '<row r="3"><c r="A3" t="inlineStr"><is><t><![CDATA[<Jo>]]></t></is></c><c r="C3"><v>1E-3</v></c><c r="D3" t="b"><v>0</v></c><c r="E3" t="str"><f>A3&amp;"!"</f><v>&lt;Jo&gt;!</v></c></row>',
      ].join(''),
    })
    const table = readBulkTableHere(bytes)
    expect(table.columns).toEqual(['Name', 'E-mail', 'Amount', 'Ok', 'Calc'])
    expect(table.rows.map((r) => r.cells)).toEqual([
      { Name: '漢字', 'E-mail': 'a&b@example.com', Amount: '0.3', Ok: 'TRUE', Calc: '#DIV/0!' },
      { Name: '<Jo>', 'E-mail': '', Amount: '0.001', Ok: 'FALSE', Calc: '<Jo>!' },
    ])
  })

  it('keeps the rows and columns where the sheet puts them: gaps, missing references, a prefix, the first sheet listed', () => {
    const bytes = workbook({
      sheet: [
        // No header on rows 1-2; the header on row 3; cell B of row 5 missing; row 6 with no references.
        '<x:row xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main" r="3"><x:c r="A3" t="inlineStr"><x:is><x:t>Name</x:t></x:is></x:c><x:c r="B3" t="inlineStr"><x:is><x:t>Code</x:t></x:is></x:c><x:c r="C3" t="inlineStr"><x:is><x:t>E-mail</x:t></x:is></x:c></x:row>',
        '<row r="5"><c r="A5" t="inlineStr"><is><t>Ann</t></is></c><c r="C5" t="inlineStr"><is><t>ann@example.com</t></is></c></row>',
        '<row><c t="inlineStr"><is><t>Bob</t></is></c><c><v>7</v></c><c t="inlineStr"><is><t>bob@example.com</t></is></c></row>',
        '<row r="9"><c r="B9"/></row>',
      ].join(''),
      second: inlineRow(1, ['Not', 'this', 'sheet']),
    })
    const table = readBulkTableHere(bytes)
    expect(table.columns).toEqual(['Name', 'Code', 'E-mail'])
    expect(table.rows).toEqual([
      { row: 5, cells: { Name: 'Ann', Code: '', 'E-mail': 'ann@example.com' } },
      { row: 6, cells: { Name: 'Bob', Code: '7', 'E-mail': 'bob@example.com' } },
    ])
  })

  it('shows dates as dates: built-in and custom date formats, times, the 1904 date system; other formats as numbers', () => {
    const styles = '<numFmts count="2"><numFmt numFmtId="164" formatCode="dd/mm/yyyy\\ hh:mm"/><numFmt numFmtId="165" formatCode="0.00&quot; days&quot;"/></numFmts><cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="165"/></cellXfs>'
    const sheet = inlineRow(1, ['A', 'B', 'C', 'D']) + '<row r="2"><c r="A2" s="1"><v>46357</v></c><c r="B2" s="2"><v>46357.5</v></c><c r="C2" s="3"><v>46357</v></c><c r="D2"><v>46357</v></c></row>'
    expect(readBulkTableHere(workbook({ styles, sheet })).rows[0]!.cells).toEqual({ A: '2026-12-01', B: '2026-12-01 12:00', C: '46357', D: '46357' })
    expect(readBulkTableHere(workbook({ styles, sheet, workbookPr: 'date1904="1"' })).rows[0]!.cells.A).toBe('2030-12-02')
  })

  it('refuses a file that inflates past the size it states, and one whose files together pass the budget, before reading it', () => {
    const honest = workbook({ sheet: inlineRow(1, ['E']) + inlineRow(2, ['x'.repeat(5000)]) })
    expect(() => readBulkTableHere(withStatedSize(honest, 'xl/worksheets/sheet2.xml', 100))).toThrow(refusal('does not inflate to the size it states'))
    // Each file's stated size is charged before it is inflated: two of 40 MiB pass the 64 MiB budget at the second.
    const half = XLSX_MAX_INFLATED / 2 + 8 * 1024 * 1024
    const big = withStatedSize(withStatedSize(honest, 'xl/workbook.xml', half), 'xl/worksheets/sheet2.xml', half)
    expect(() => readBulkTableHere(big)).toThrow(refusal('more than the budget'))
  })

  it('refuses what is not a workbook it can read: encrypted, damaged, no workbook, XML that is not well-formed or defines entities', () => {
    const ok = workbook({ sheet: inlineRow(1, ['E']) + inlineRow(2, ['a@example.com']) })
    expect(() => readBulkTableHere(markedEncrypted(ok))).toThrow(refusal('encrypted'))
    expect(() => readBulkTableHere(damaged(workbook({ sheet: inlineRow(1, ['E']), level: 0 }), 'xl/workbook.xml'))).toThrow(refusal('"xl/workbook.xml" is damaged'))
    expect(() => readBulkTableHere(damaged(ok, 'xl/worksheets/sheet2.xml'))).toThrow(refusal(/"xl\/worksheets\/sheet2.xml" (is damaged|does not inflate)/))
    expect(() => readBulkTableHere(zipSync({ 'word/document.xml': new TextEncoder().encode('<w/>') }))).toThrow(refusal('not an XLSX workbook'))
    expect(() => readBulkTableHere(Buffer.from('PK\x03\x04' + '\0'.repeat(200), 'latin1'))).toThrow(refusal('not a ZIP archive'))
    expect(() => readBulkTableHere(workbook({ sheet: '<row r="1"><c r="A1" t="inlineStr"><is><t>E</t></c></row>' }))).toThrow(refusal('not well-formed'))
    const laughs = workbook({
      sheet: inlineRow(1, ['E']),
      extra: {
        'xl/worksheets/sheet2.xml': new TextEncoder().encode(
          '<?xml version="1.0"?><!DOCTYPE w [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&c;</t></is></c></row></sheetData></worksheet>',
        ),
      },
    })
    expect(() => readBulkTableHere(laughs)).toThrow(refusal('not well-formed'))
  })

  it('holds its caps while reading: a cell at column XFD, a cell of 1 MiB, more rows than a bulk send takes', () => {
    expect(() => readBulkTableHere(workbook({ sheet: '<row r="1"><c r="XFD1" t="inlineStr"><is><t>E</t></is></c></row>' }))).toThrow(refusal('more than 200 columns'))
    const long = readBulkTableHere(workbook({ sheet: inlineRow(1, ['E']) + inlineRow(2, ['y'.repeat(1024 * 1024)]) }))
    expect(long.rows[0]!.cells.E).toHaveLength(1000)
    const many = workbook({ sheet: inlineRow(1, ['E']) + Array.from({ length: 10_050 }, (_, i) => inlineRow(i + 2, [`p${i}@example.com`])).join('') })
    expect(() => readBulkTableHere(many)).toThrow(expect.objectContaining({ status: 400, message: expect.stringContaining('at most 10000 rows') }))
  })
})
