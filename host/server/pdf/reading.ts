/**
 * A PDF read once, and each of its revisions seen as readers see it. Readers disagree on a file
 * that defines an object more than once: most follow the cross-reference sections from the last
 * `startxref` back through `/Prev` (tables, streams and object streams alike), a scanning reader
 * (pdf-lib, a reader repairing a file) takes the last definition in file order. A revision is seen
 * both ways, so a change hidden from one kind of reader is still found by the other.
 */
import {
  PDFContext,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFObjectParser,
  PDFParser,
  PDFRawStream,
  PDFRef,
  PDFXRefStreamParser,
  type PDFObject,
} from '@cantoo/pdf-lib'
import { decodeStream } from './inflate-budget.js'

/** The objects of one revision as one kind of reader resolves them. */
export interface RevisionView {
  /** The catalog the revision's trailer names. */
  root: PDFObject | undefined
  /** Its trailer's /Encrypt, if any. */
  encrypt: PDFObject | undefined
  /** The object a reference resolves to; undefined for a free or missing one. */
  lookup(ref: PDFRef): PDFObject | undefined
}

/** The whole file, parsed once (pdf-lib's reading), with every definition of each object in file order. */
export interface ReadPdf {
  bytes: Uint8Array
  doc: PDFDocument
  /** Per reference, each definition the parser met and the offset where it (or its object stream) ends. */
  definitions: Map<string, { object: PDFObject; end: number }[]>
  /** Objects read at a cross-reference offset or from an object stream, shared by the revisions that point at the same place. */
  located: Map<string, Located>
  /** Where each object header (`n g obj`) the parser read begins. */
  headers: Set<number>
}

/** An object read where a cross-reference points, and the offset in the file where it stops. */
interface Located {
  object: PDFObject
  stop: number
}

/** More cross-reference sections than this in one chain: a loop, or a file built to be slow. */
const MAX_SECTIONS = 1000

/** A revision whose cross-reference cannot be followed as readers follow it. */
export class UnreadableRevision extends Error {}


/** Parses the whole file once (as PDFDocument.load does), remembering every definition of every object. Run it within an inflation budget. */
export async function readPdf(bytes: Uint8Array): Promise<ReadPdf> {
  const parser = PDFParser.forBytesWithOptions(bytes, Infinity, true, false)
  const internals = parser as unknown as { context: PDFContext; bytes: { offset(): number } }
  const definitions = new Map<string, { object: PDFObject; end: number }[]>()
  const { context } = internals
  const assign = context.assign.bind(context)
  context.assign = (ref: PDFRef, object: PDFObject) => {
    let list = definitions.get(ref.tag)
    if (!list) definitions.set(ref.tag, (list = []))
    list.push({ object, end: internals.bytes.offset() })
    assign(ref, object)
  }
  const headers = new Set<number>()
  const own = parser as unknown as { parseIndirectObjectHeader(): PDFRef; skipWhitespaceAndComments(): void }
  const readHeader = own.parseIndirectObjectHeader.bind(parser)
  own.parseIndirectObjectHeader = () => {
    own.skipWhitespaceAndComments()
    headers.add(internals.bytes.offset())
    return readHeader()
  }
  await parser.parseDocument()
  context.assign = assign
  const Document = PDFDocument as unknown as new (context: PDFContext, ignoreEncryption: boolean, updateMetadata: boolean) => PDFDocument
  return { bytes, doc: new Document(context, false, false), definitions, located: new Map(), headers }
}

/**
 * An object header after `from` that the parser never read as one: inside a stream's data, or
 * in bytes it skipped. A reader that repairs the file (scanning raw bytes for headers) would take
 * it for a definition.
 */
export function hiddenHeader(pdf: ReadPdf, from: number): boolean {
  const text = Buffer.from(pdf.bytes.buffer, pdf.bytes.byteOffset + from, pdf.bytes.length - from).toString('latin1')
  for (const m of text.matchAll(/(?<![0-9])[0-9]+[\0\t\n\f\r ]+[0-9]+[\0\t\n\f\r ]+obj\b/g)) if (!pdf.headers.has(from + m.index)) return true
  return false
}

/** The revision that ends at `end` as a scanning reader sees it: the last definition of each object before `end`. */
export function scannedRevision(pdf: ReadPdf, end: number, trailer: Pick<RevisionView, 'root' | 'encrypt'>): RevisionView {
  return {
    ...trailer,
    lookup(ref) {
      const list = pdf.definitions.get(ref.tag) ?? []
      for (let i = list.length - 1; i >= 0; i--) if (list[i]!.end <= end) return list[i]!.object
      return undefined
    },
  }
}

type Entry = { kind: 'free' } | { kind: 'offset'; offset: number; generation: number } | { kind: 'compressed'; stream: number; index: number }

/**
 * The revision that ends at `end` as a cross-reference reader sees it: from the last `startxref`
 * before `end` back through every `/Prev` (and a hybrid file's `/XRefStm`). Throws
 * UnreadableRevision when that chain cannot be followed, or when one section lists an object
 * twice with different places (readers differ on which one counts).
 */
export function referencedRevision(pdf: ReadPdf, end: number): RevisionView {
  const revision = Buffer.from(pdf.bytes.buffer, pdf.bytes.byteOffset, end)
  const at = revision.lastIndexOf('startxref')
  const start = at < 0 ? null : /^startxref\s+(\d+)/.exec(revision.subarray(at, at + 40).toString('latin1'))
  if (!start) throw new UnreadableRevision('no startxref')
  const scratch = PDFContext.create()
  const entries = new Map<number, Entry>()
  let root: PDFObject | undefined
  let encrypt: PDFObject | undefined
  const visited = new Set<number>()
  const pending: number[] = [Number(start[1])]
  while (pending.length) {
    const offset = pending.shift()!
    if (visited.has(offset) || visited.size >= MAX_SECTIONS || offset >= end) throw new UnreadableRevision('a cross-reference chain that loops or leaves the revision')
    visited.add(offset)
    const section = readSection(pdf.bytes, offset, end, scratch)
    root ??= section.trailer.get(PDFName.of('Root'))
    encrypt ??= section.trailer.get(PDFName.of('Encrypt'))
    // Entries of newer sections win; a hybrid file's stream comes right after its table.
    for (const [n, entry] of section.entries) if (!entries.has(n)) entries.set(n, entry)
    const next = [section.trailer.get(PDFName.of('XRefStm')), section.trailer.get(PDFName.of('Prev'))]
    next.forEach((value, i) => {
      if (value === undefined) return
      if (!(value instanceof PDFNumber)) throw new UnreadableRevision('a /Prev or /XRefStm that is not an offset')
      if (i === 0) pending.unshift(value.asNumber())
      else pending.push(value.asNumber())
    })
  }
  // Read against the whole file, once per place; a revision sees only what ends within it.
  const whole = pdf.bytes.length
  const located = (key: string, read: () => Located): PDFObject => {
    const found = locate(pdf, key, read)
    if (found.stop > end) throw new UnreadableRevision('an object that runs past its revision')
    return found.object
  }
  const lookup = (ref: PDFRef): PDFObject | undefined => {
    const entry = entries.get(ref.objectNumber)
    if (!entry || entry.kind === 'free') return undefined
    if (entry.kind === 'offset') {
      if (entry.generation !== ref.generationNumber) return undefined
      return located(`${ref.objectNumber}@${entry.offset}`, () => objectAt(pdf.bytes, entry.offset, whole, ref.objectNumber, scratch))
    }
    if (ref.generationNumber !== 0) return undefined
    const container = entries.get(entry.stream)
    if (container?.kind !== 'offset') throw new UnreadableRevision('an object stream that is not at an offset')
    const home = `${entry.stream}@${container.offset}`
    return located(`${ref.objectNumber}@${home}#${entry.index}`, () => {
      const stream = located(home, () => objectAt(pdf.bytes, container.offset, whole, entry.stream, scratch))
      return { object: fromObjectStream(stream, entry.index, ref.objectNumber, scratch), stop: pdf.located.get(home)!.stop }
    })
  }
  return { root, encrypt, lookup }
}

/** What was read at a place of the file (`n@offset`, `n@stream#index`), read there once. */
function locate(pdf: ReadPdf, key: string, read: () => Located): Located {
  let found = pdf.located.get(key)
  if (!found) pdf.located.set(key, (found = read()))
  return found
}

/** PDF's white-space characters. */
const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09 || b === 0x0c || b === 0x00

/**
 * Whether the bytes after `end` are whole incremental updates and nothing else, as a writer appends
 * them: indirect objects, a cross-reference section (a table and its trailer, or a stream among
 * the objects), `startxref` naming that section, `%%EOF` and at most an end-of-line; whitespace
 * between the parts. Anything else is data no update accounts for: bytes after the last `%%EOF`
 * (or no `%%EOF` at all), a comment, words among the objects that readers skip, a `startxref`
 * that names no section of its update.
 */
export function onlyWholeUpdates(pdf: ReadPdf, end: number): boolean {
  const { bytes } = pdf
  const length = bytes.length
  const scratch = PDFContext.create()
  const head = (at: number, n: number) => Buffer.from(bytes.buffer, bytes.byteOffset + at, Math.min(n, length - at)).toString('latin1')
  const objectHeader = /^(\d+)[\0\t\n\f\r ]+\d+[\0\t\n\f\r ]+obj/
  const ending = /^startxref[\0\t\n\f\r ]+(\d+)[\0\t\n\f\r ]+%%EOF(\r\n|\r|\n)?/
  let sections: number[] = [] // where the cross-reference sections of the update being read begin
  let at = end
  try {
    for (;;) {
      while (at < length && isSpace(bytes[at]!)) at++
      if (at >= length) return false // nothing but whitespace, or an update without its end
      const start = head(at, 48)
      if (start.startsWith('startxref')) {
        const found = ending.exec(head(at, 64))
        if (!found || !sections.includes(Number(found[1]))) return false
        at += found[0].length
        if (at === length) return true
        sections = []
      } else if (start.startsWith('xref')) {
        sections.push(at)
        at = readSection(bytes, at, length, scratch).stop
      } else {
        const header = objectHeader.exec(start)
        if (!header) return false
        const { object, stop } = locate(pdf, `${header[1]}@${at}`, () => objectAt(bytes, at, length, Number(header[1]), scratch))
        if (object instanceof PDFRawStream && object.dict.get(PDFName.of('Type')) === PDFName.of('XRef')) sections.push(at)
        at = stop
        while (at < length && isSpace(bytes[at]!)) at++
        if (head(at, 6) !== 'endobj') return false
        at += 6
      }
    }
  } catch {
    return false // a part that does not read
  }
}

/** One cross-reference section at `offset`: a table and its trailer, or a cross-reference stream; and where it stops. */
function readSection(bytes: Uint8Array, offset: number, end: number, context: PDFContext): { entries: Map<number, Entry>; trailer: PDFDict; stop: number } {
  const entries = new Map<number, Entry>()
  const put = (n: number, entry: Entry) => {
    const known = entries.get(n)
    if (known && JSON.stringify(known) !== JSON.stringify(entry)) throw new UnreadableRevision(`object ${n} is listed twice in one section`)
    entries.set(n, entry)
  }
  const head = Buffer.from(bytes.buffer, bytes.byteOffset + offset, Math.min(end - offset, 16)).toString('latin1')
  if (/^\s*xref/.test(head)) {
    const tokens = new Tokens(bytes, offset + head.indexOf('xref') + 4, end)
    for (;;) {
      const word = tokens.next()
      if (word.startsWith('trailer')) {
        tokens.at = tokens.start + 'trailer'.length
        break
      }
      const first = Number(word)
      const count = Number(tokens.next())
      if (!Number.isSafeInteger(first) || !Number.isSafeInteger(count) || first < 0 || count < 0) throw new UnreadableRevision('a cross-reference table that does not read')
      for (let i = 0; i < count; i++) {
        const [field1, field2, type] = [Number(tokens.next()), Number(tokens.next()), tokens.next()]
        if (!Number.isSafeInteger(field1) || !Number.isSafeInteger(field2) || (type !== 'n' && type !== 'f')) throw new UnreadableRevision('a cross-reference entry that does not read')
        // Object 0 heads the free list; it is never an object.
        if (first + i !== 0) put(first + i, type === 'f' ? { kind: 'free' } : { kind: 'offset', offset: field1, generation: field2 })
      }
    }
    const { object: trailer, stop } = parseAt(bytes, tokens.at, end, context)
    if (!(trailer instanceof PDFDict)) throw new UnreadableRevision('a trailer that is not a dictionary')
    return { entries, trailer, stop }
  }
  const { object: stream, stop } = objectAt(bytes, offset, end, null, context)
  if (!(stream instanceof PDFRawStream) || stream.dict.get(PDFName.of('Type')) !== PDFName.of('XRef')) throw new UnreadableRevision('no cross-reference section at its offset')
  const parser = PDFXRefStreamParser.forStream(stream) as unknown as { parseEntries(): { ref: PDFRef; offset: number; deleted: boolean; inObjectStream: boolean }[] }
  for (const e of parser.parseEntries()) {
    const n = e.ref.objectNumber
    if (n === 0 && e.deleted) continue
    put(n, e.deleted ? { kind: 'free' } : e.inObjectStream ? { kind: 'compressed', stream: e.offset, index: e.ref.generationNumber } : { kind: 'offset', offset: e.offset, generation: e.ref.generationNumber })
  }
  return { entries, trailer: stream.dict, stop }
}

/** The indirect object whose header (`n g obj`) starts at `offset`; its number must be `expected` when given. */
function objectAt(bytes: Uint8Array, offset: number, end: number, expected: number | null, context: PDFContext): Located {
  if (!Number.isSafeInteger(offset) || offset < 0 || offset >= end) throw new UnreadableRevision('an offset outside the revision')
  const head = Buffer.from(bytes.buffer, bytes.byteOffset + offset, Math.min(end - offset, 48)).toString('latin1')
  const header = /^(\d+)\s+(\d+)\s+obj/.exec(head)
  if (!header || (expected !== null && Number(header[1]) !== expected)) throw new UnreadableRevision('an offset that is not the object it names')
  return parseAt(bytes, offset + header[0].length, end, context)
}

/** One object parsed at `at`, within `bytes` up to `end`; and where it stops. */
function parseAt(bytes: Uint8Array, at: number, end: number, context: PDFContext): Located {
  const parser = PDFObjectParser.forBytes(bytes.subarray(at, end), context) as unknown as { parseObject(): PDFObject; bytes: { offset(): number } }
  const object = parser.parseObject()
  return { object, stop: at + parser.bytes.offset() }
}

/** An object stream decoded once, with its members' numbers and offsets, however many of them are read. */
const decoded = new WeakMap<PDFRawStream, { data: Uint8Array; members: [number, number][] }>()

/** The `index`th object of an object stream, which must be object number `expected`. */
function fromObjectStream(stream: PDFObject | undefined, index: number, expected: number, context: PDFContext): PDFObject {
  if (!(stream instanceof PDFRawStream) || stream.dict.get(PDFName.of('Type')) !== PDFName.of('ObjStm')) throw new UnreadableRevision('an object stream that is not one')
  let contents = decoded.get(stream)
  if (!contents) {
    const count = stream.dict.get(PDFName.of('N'))
    if (!(count instanceof PDFNumber)) throw new UnreadableRevision('an object stream without a count')
    const data = decodeStream(stream).decode()
    const tokens = new Tokens(data, 0, data.length)
    // Each member takes at least four bytes of the header: a count beyond that is a lie.
    const members: [number, number][] = []
    for (let i = 0; i < Math.min(count.asNumber(), data.length / 4); i++) members.push([Number(tokens.next()), Number(tokens.next())])
    decoded.set(stream, (contents = { data, members }))
  }
  const first = stream.dict.get(PDFName.of('First'))
  const [number, offset] = contents.members[index] ?? []
  if (!(first instanceof PDFNumber) || number !== expected || !Number.isSafeInteger(offset)) throw new UnreadableRevision('an object stream that holds another object there')
  return parseAt(contents.data, first.asNumber() + offset!, contents.data.length, context).object
}

/** Whitespace-separated words of a cross-reference table or an object stream's header. */
class Tokens {
  constructor(
    private readonly bytes: Uint8Array,
    public at: number,
    private readonly end: number,
  ) {}

  /** Where the last word began. */
  start = 0

  next(): string {
    while (this.at < this.end && isSpace(this.bytes[this.at]!)) this.at++
    const from = (this.start = this.at)
    while (this.at < this.end && !isSpace(this.bytes[this.at]!) && this.at - from < 32) this.at++
    if (from === this.at) throw new UnreadableRevision('the section ends early')
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset + from, this.at - from).toString('latin1')
  }
}
