/**
 * Reading a bulk send's table (domain/template/bulk-table.ts): what spreadsheets write (`;` as the
 * separator, quoted cells with line breaks and quotes, a byte-order mark, blank lines) and what
 * they open (cells that would start a formula made text). No database.
 */
import { describe, expect, it } from 'vitest'
import { csvCell, readBulkTableHere } from '../../host/server/domain/template/bulk-table.js'

const bytes = (text: string) => new TextEncoder().encode(text)

describe('a bulk send table', () => {
  it('reads what spreadsheets write: `;`, quoted cells with line breaks and quotes, a byte-order mark, blank lines', () => {
    const table = readBulkTableHere(bytes('\ufeffName;E-mail;Note\r\n"Doe; Jane";jane@example.com;"two\r\nlines, ""quoted"""\r\n\r\n;;\r\nBob;bob@example.com\r\n'))
    expect(table.columns).toEqual(['Name', 'E-mail', 'Note'])
    expect(table.encoding).toBe('utf-8')
    expect(table.rows).toEqual([
      { row: 2, cells: { Name: 'Doe; Jane', 'E-mail': 'jane@example.com', Note: 'two\r\nlines, "quoted"' } },
      // A row with fewer cells than columns has the rest empty; an empty one is left out.
      { row: 4, cells: { Name: 'Bob', 'E-mail': 'bob@example.com', Note: '' } },
    ])
  })

  it('refuses a table it cannot read, saying why: no header, a column named twice, an open quote', () => {
    for (const [text, why] of [
      ['', 'the first row must name the columns'],
      ['Name,Name\nA,B\n', 'two columns are named "Name"'],
      ['Name,E-mail\n"Jane,jane@example.com\n', ''],
    ] as const) {
      expect(() => readBulkTableHere(bytes(text))).toThrow(expect.objectContaining({ status: 400, code: 'INVALID_TABLE', message: expect.stringContaining(why) }))
    }
  })

  it('writes cells a spreadsheet opens as text: quoted, a formula\'s first character escaped', () => {
    expect(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', 'plain', 'say "hi"', null, 3].map(csvCell)).toEqual([
      `"'=1+1"`, `"'+1"`, `"'-1"`, `"'@SUM(A1)"`, `"'\tx"`, '"plain"', '"say ""hi"""', '""', '"3"',
    ])
  })
})
