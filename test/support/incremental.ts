/**
 * What an editor does to a signed PDF: an incremental update (the signed bytes left as they are)
 * that adds a page with a line of text, for tests that a seal reports it.
 */
import { PDFDocument, PDFName, PDFRef } from 'pdf-lib'
import { appendRevision, bytesOf } from '../../host/server/pdf/long-term.js'

export async function addPageIncrementally(pdf: Uint8Array): Promise<Buffer> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false })
  const before = doc.context.largestObjectNumber
  doc.addPage().drawText('Added after signing.')
  await doc.flush()
  // The page tree that gained the page, and every object made for it.
  const refs = [doc.catalog.get(PDFName.of('Pages')) as PDFRef]
  for (let n = before + 1; n <= doc.context.largestObjectNumber; n++) if (doc.context.lookup(PDFRef.of(n))) refs.push(PDFRef.of(n))
  const objects = refs.map((ref) => ({ ref, body: bytesOf(doc.context.lookup(ref)!) }))
  return appendRevision(Buffer.from(pdf), objects, doc, doc.context.largestObjectNumber + 1)
}

/** An object as an update writes it: its number and the bytes between `obj` and `endobj`. */
export interface Written {
  number: number
  body: Buffer | string
}

/** What an update's trailer repeats of the file's: Root, Info, ID; and where its cross-reference section is. */
async function previous(pdf: Uint8Array) {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false })
  const prev = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(Buffer.from(pdf).subarray(-1024).toString('latin1'))?.[1]
  if (!prev) throw new Error('the file has no cross-reference offset')
  const t = doc.context.trailerInfo
  const keys = [`/Root ${t.Root!.toString()}`, t.Info && `/Info ${t.Info.toString()}`, t.ID && `/ID ${t.ID.toString()}`, `/Prev ${prev}`].filter(Boolean).join(' ')
  return { doc, keys, size: doc.context.largestObjectNumber + 1 }
}

const chunk = (number: number, body: Buffer | string) => Buffer.concat([Buffer.from(`${number} 0 obj\n`), Buffer.from(body as string, typeof body === 'string' ? 'latin1' : undefined), Buffer.from('\nendobj\n')])

/**
 * An incremental update written by hand: `objects` in the order given (a number may come twice),
 * then a classic cross-reference table that lists the definitions at the indexes `listed`, in
 * that order (two of one number list it twice in one section). Readers that follow the table and
 * readers that scan the file may then see different objects.
 */
export async function appendWithTable(pdf: Uint8Array, objects: Written[], listed: number[]): Promise<Buffer> {
  const { keys, size } = await previous(pdf)
  const parts: Buffer[] = [Buffer.from(pdf), Buffer.from('\n')]
  let at = pdf.length + 1
  const offsets = objects.map(({ number, body }) => {
    const c = chunk(number, body)
    parts.push(c)
    at += c.length
    return at - c.length
  })
  let xref = 'xref\n0 1\n0000000000 65535 f \n'
  for (const i of listed) xref += `${objects[i]!.number} 1\n${String(offsets[i]).padStart(10, '0')} 00000 n \n`
  const top = Math.max(size, ...objects.map((o) => o.number + 1))
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${top} ${keys} >>\nstartxref\n${at}\n%%EOF\n`, 'latin1'))
  return Buffer.concat(parts)
}

/**
 * An incremental update with a cross-reference stream: `compressed` in an object stream (listed
 * there), then `objects` as given, each listed at its first definition unless its number is
 * compressed (a copy after the object stream that only a scanning reader sees).
 */
export async function appendWithStream(pdf: Uint8Array, compressed: Written[], objects: Written[]): Promise<Buffer> {
  const { keys, size } = await previous(pdf)
  let next = Math.max(size, ...[...compressed, ...objects].map((o) => o.number + 1))
  const objStm = next++
  const xrefNumber = next++
  const parts: Buffer[] = [Buffer.from(pdf), Buffer.from('\n')]
  let at = pdf.length + 1
  const entries = new Map<number, [number, number, number]>()
  const write = (number: number, body: Buffer | string) => {
    const c = chunk(number, body)
    parts.push(c)
    at += c.length
    return at - c.length
  }
  const bodies = compressed.map((o) => Buffer.from(`${o.body}\n`, 'latin1'))
  let offset = 0
  const header = compressed.map((o, i) => `${o.number} ${(offset += i ? bodies[i - 1]!.length : 0)}`).join(' ') + '\n'
  const data = Buffer.concat([Buffer.from(header), ...bodies])
  entries.set(objStm, [1, write(objStm, Buffer.concat([Buffer.from(`<< /Type /ObjStm /N ${compressed.length} /First ${header.length} /Length ${data.length} >>\nstream\n`), data, Buffer.from('\nendstream')])), 0])
  compressed.forEach((o, i) => entries.set(o.number, [2, objStm, i]))
  for (const o of objects) {
    const where = write(o.number, o.body)
    if (!entries.has(o.number)) entries.set(o.number, [1, where, 0])
  }
  entries.set(xrefNumber, [1, at, 0])
  const numbers = [...entries.keys()].sort((a, b) => a - b)
  const rows = Buffer.concat(numbers.map((n) => {
    const [type, field, index] = entries.get(n)!
    const row = Buffer.alloc(7)
    row.writeUInt8(type, 0)
    row.writeUInt32BE(field, 1)
    row.writeUInt16BE(index, 5)
    return row
  }))
  const index = numbers.map((n) => `${n} 1`).join(' ')
  parts.push(chunk(xrefNumber, Buffer.concat([Buffer.from(`<< /Type /XRef /Size ${next} /W [1 4 2] /Index [${index}] ${keys} /Length ${rows.length} >>\nstream\n`, 'latin1'), rows, Buffer.from('\nendstream')])))
  parts.push(Buffer.from(`startxref\n${at}\n%%EOF\n`))
  return Buffer.concat(parts)
}

/** A content stream object's body that writes `line` large on the page with the font resource `font`. */
export const textStream = (font: string, line: string) => {
  const content = `BT /${font} 28 Tf 60 400 Td (${line}) Tj ET`
  return `<< /Length ${content.length} >>\nstream\n${content}\nendstream`
}
