/**
 * What an editor, or someone hiding a change, does to a signed PDF: incremental updates (the
 * signed bytes left as they are), for tests that a seal reports them.
 */
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef, type PDFObject } from '@cantoo/pdf-lib'
import { appendRevision, bytesOf } from '../../host/server/pdf/long-term.js'

/** Puts an object into an update: a new definition of `ref`. */
export type Put = (ref: PDFRef, object: PDFObject) => void

/**
 * One incremental update written as long-term.ts writes a validation update: `edit` puts each
 * object it redefines or adds (`next` gives a new object number).
 */
export async function updateIncrementally(pdf: Uint8Array, edit: (doc: PDFDocument, put: Put, next: () => PDFRef) => void): Promise<Buffer> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false })
  const objects: { ref: PDFRef; body: Buffer }[] = []
  let n = doc.context.largestObjectNumber
  edit(doc, (ref, object) => objects.push({ ref, body: bytesOf(object) }), () => PDFRef.of(++n))
  return appendRevision(Buffer.from(pdf), objects, doc, n + 1)
}

/** An editor's update: a page added, with a line of text. */
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

/** A stream object's body holding `data` as it is. */
const stream = (data: string) => `<< /Length ${data.length} >>\nstream\n${data}\nendstream`

/** A content stream object's body that writes `line` large on the page with the font resource `font`. */
export const textStream = (font: string, line: string) => {
  const content = `BT /${font} 28 Tf 60 400 Td (${line}) Tj ET`
  return `<< /Length ${content.length} >>\nstream\n${content}\nendstream`
}

/**
 * Incremental updates that change what a page of the sealed file shows while hiding it from
 * one kind of reader: a redefinition followed by a copy of the original, one section listing an
 * object twice, and a page redefined in an object stream behind a cross-reference stream.
 */
export async function hiddenChanges(sealed: Uint8Array): Promise<Record<string, Buffer>> {
  const doc = await PDFDocument.load(sealed, { updateMetadata: false })
  // The certificate page: it shows text.
  const page = doc.getPages().find((p) => p.node.Resources()?.lookupMaybe(PDFName.of('Font'), PDFDict)?.keys().length)!
  const contents = page.node.get(PDFName.of('Contents'))
  const content = (contents instanceof PDFArray ? contents.get(0) : contents) as PDFRef
  const original = (ref: PDFRef) => bytesOf(doc.context.lookup(ref)!)
  const mallory = textStream('Helv', 'PAY TO: MALLORY / 99000 EUR')
  const n = content.objectNumber
  const shown = doc.context.largestObjectNumber + 1
  // The redefined page shows a new content stream, with a standard font among its resources.
  const redirected = page.node.clone(doc.context)
  redirected.set(PDFName.of('Contents'), PDFRef.of(shown))
  const resources = page.node.Resources()!.clone(doc.context)
  resources.set(PDFName.of('Font'), doc.context.obj({ Helv: { Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica' } }))
  redirected.set(PDFName.of('Resources'), resources)
  /** `ref` redefined by `edit`, then its original copied after it; the table lists the redefinition. */
  const shadowed = (ref: PDFRef, edit: (dict: PDFDict) => void) => {
    const changed = (doc.context.lookup(ref) as PDFDict).clone(doc.context)
    edit(changed)
    return appendWithTable(sealed, [{ number: ref.objectNumber, body: bytesOf(changed) }, { number: ref.objectNumber, body: original(ref) }], [0])
  }
  const catalog = doc.context.trailerInfo.Root as PDFRef
  const pageTree = doc.catalog.get(PDFName.of('Pages')) as PDFRef
  const fontRef = page.node.Resources()!.lookup(PDFName.of('Font'), PDFDict).values().find((v) => v instanceof PDFRef) as PDFRef
  return {
    'the catalog given an open action, then the original copied after it': await shadowed(catalog, (d) => d.set(PDFName.of('OpenAction'), doc.context.obj([page.ref, 'Fit']))),
    'the page tree given one page fewer, then the original copied after it': await shadowed(pageTree, (d) => {
      d.set(PDFName.of('Kids'), doc.context.obj(d.lookup(PDFName.of('Kids'), PDFArray).asArray().slice(1)))
      d.set(PDFName.of('Count'), doc.context.obj(doc.getPageCount() - 1))
    }),
    'a font redefined, then the original copied after it': await shadowed(fontRef, (d) => d.set(PDFName.of('BaseFont'), PDFName.of('Courier'))),
    'a page given an annotation, then the original copied after it': await shadowed(page.ref, (d) =>
      d.set(PDFName.of('Annots'), doc.context.obj([doc.context.obj({ Type: 'Annot', Subtype: 'FreeText', Rect: [50, 50, 400, 100], Contents: 'PAY TO: MALLORY', DA: '/Helv 12 Tf 0 g' })])),
    ),
    // Only a reader repairing the file (scanning raw bytes for headers) finds this definition.
    'a content stream redefined inside another stream\'s data': await appendWithTable(sealed, [{ number: shown, body: stream(`${n} 0 obj\n${mallory}\nendobj\n`) }], [0]),
    'a content stream redefined, then the original copied after it': await appendWithTable(sealed, [{ number: n, body: mallory }, { number: n, body: original(content) }], [0]),
    'one section that lists the content stream twice': await appendWithTable(sealed, [{ number: n, body: mallory }, { number: n, body: original(content) }], [0, 1]),
    'the original listed, the change defined after it': await appendWithTable(sealed, [{ number: n, body: original(content) }, { number: n, body: mallory }], [0]),
    'a page redefined in an object stream, the original page copied after it': await appendWithStream(
      sealed,
      [{ number: page.ref.objectNumber, body: bytesOf(redirected) }],
      [{ number: shown, body: mallory }, { number: page.ref.objectNumber, body: original(page.ref) }],
    ),
  }
}
