/**
 * PAdES B-LT and B-LTA: after the seal, one incremental update (the sealed bytes stay as they are,
 * so the seal still covers its revision) that adds the chains' certificates and CRLs in a DSS
 * dictionary and a document timestamp (SubFilter ETSI.RFC3161) over the whole file, DSS included.
 * With them a reader can validate the seal after its certificate expires or the CA is gone: the
 * revocation data is in the file, and the document timestamp proves it was there in time.
 */
import { decodePDFRawStream, PDFArray, PDFDict, PDFName, PDFNumber, PDFRawStream, PDFRef, PDFString, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib'
import { sha256 } from './cms.js'
import type { ValidationData } from './revocation.js'

/** A TimeStampToken (DER) over a SHA-256 digest; tsa.ts's requestTimestamp with its servers. */
export type Timestamper = (digest: Buffer) => Promise<Buffer>

/** What a file's DSS already holds: its streams' references, kept as they are, and their bytes (to add nothing twice). */
export interface ExistingDss {
  certificates: { ref: PDFRef; der: Buffer }[]
  crls: { ref: PDFRef; der: Buffer }[]
}

/** The DSS of the document's catalog (none in a file only sealed: empty lists). */
export function existingDss(doc: PDFDocument): ExistingDss {
  const { context } = doc
  const entry = context.lookup(context.trailerInfo.Root as PDFRef, PDFDict).get(PDFName.of('DSS'))
  const dss = entry ? context.lookupMaybe(entry, PDFDict) : undefined
  const streams = (key: string) => {
    const list = dss ? context.lookupMaybe(dss.get(PDFName.of(key)), PDFArray) : undefined
    return (list?.asArray() ?? []).flatMap((ref) => {
      const stream = ref instanceof PDFRef ? context.lookup(ref) : undefined
      return ref instanceof PDFRef && stream instanceof PDFRawStream ? [{ ref, der: Buffer.from(decodePDFRawStream(stream).decode()) }] : []
    })
  }
  return { certificates: streams('Certs'), crls: streams('CRLs') }
}

/**
 * `signed`: the bytes `doc.save()` gave, with the seal written in, or a file as read (an archive's
 * renewal). `doc` is that document (its object numbers are those of `signed`). `existing`: what the
 * file's DSS holds already: the update's DSS replaces the catalog's, so it names those streams
 * again, with the new data not among them. Returns `signed` with the update appended.
 */
export async function appendLongTermValidation(
  doc: PDFDocument,
  signed: Uint8Array,
  data: ValidationData,
  timestamp: Timestamper,
  tokenBudget: number,
  existing: ExistingDss = existingDss(doc),
): Promise<Uint8Array> {
  const { context } = doc
  const root = context.trailerInfo.Root as PDFRef
  let next = context.largestObjectNumber + 1
  const allocate = () => PDFRef.of(next++)
  const objects: { ref: PDFRef; body: Buffer }[] = []
  const put = (ref: PDFRef, body: string | Buffer | PDFObject) =>
    objects.push({ ref, body: typeof body === 'string' ? Buffer.from(body, 'latin1') : Buffer.isBuffer(body) ? body : bytesOf(body) })

  const streams = (kept: ExistingDss['certificates'], list: Buffer[]) => [
    ...kept.map(({ ref }) => `${ref.objectNumber} ${ref.generationNumber} R`),
    ...list
      .filter((der, i) => !kept.some((k) => k.der.equals(der)) && list.findIndex((o) => o.equals(der)) === i)
      .map((der) => {
        const ref = allocate()
        put(ref, Buffer.concat([Buffer.from(`<< /Length ${der.length} >>\nstream\n`, 'latin1'), der, Buffer.from('\nendstream', 'latin1')]))
        return `${ref.objectNumber} 0 R`
      }),
  ]
  const dss = allocate()
  put(dss, `<< /Type /DSS /Certs [${streams(existing.certificates, data.certificates).join(' ')}] /CRLs [${streams(existing.crls, data.crls).join(' ')}] >>`)

  // The document timestamp: an invisible signature field on the first page.
  const signature = allocate()
  const widget = allocate()
  const page = doc.getPage(0).ref
  const contentsHex = 2 * tokenBudget
  put(
    signature,
    `<< /Type /DocTimeStamp /Filter /Adobe.PPKLite /SubFilter /ETSI.RFC3161 /ByteRange ${BYTE_RANGE_PLACEHOLDER} /Contents <${'0'.repeat(contentsHex)}> >>`,
  )
  put(widget, `<< /Type /Annot /Subtype /Widget /FT /Sig /T (${timestampFieldName(doc)}) /F 132 /Rect [0 0 0 0] /V ${signature.objectNumber} 0 R /P ${page.objectNumber} 0 R >>`)

  // The page's annotations, the form's fields and the catalog, each rewritten with what it gains.
  const pageDict = context.lookup(page, PDFDict).clone(context)
  appendTo(context.lookup(page, PDFDict), pageDict, 'Annots', widget, put)
  put(page, pageDict)
  const catalog = context.lookup(root, PDFDict).clone(context)
  const formEntry = catalog.get(PDFName.of('AcroForm'))
  const form = (formEntry ? context.lookup(formEntry, PDFDict) : context.obj({})).clone(context)
  appendTo(formEntry ? context.lookup(formEntry, PDFDict) : context.obj({}), form, 'Fields', widget, put)
  form.set(PDFName.of('SigFlags'), PDFNumber.of(3))
  if (formEntry instanceof PDFRef) put(formEntry, form)
  else catalog.set(PDFName.of('AcroForm'), form)
  catalog.set(PDFName.of('DSS'), dss)
  put(root, catalog)

  const update = appendRevision(Buffer.from(signed.buffer, signed.byteOffset, signed.byteLength), objects, doc, next)
  return fillTimestamp(update, signature.objectNumber, contentsHex, timestamp)
}

/** "Document timestamp", then "Document timestamp 2", ...: each field's name is its own (a renewal adds one). */
function timestampFieldName(doc: PDFDocument): string {
  const { context } = doc
  const form = context.lookupMaybe(context.lookup(context.trailerInfo.Root as PDFRef, PDFDict).get(PDFName.of('AcroForm')), PDFDict)
  const fields = context.lookupMaybe(form?.get(PDFName.of('Fields')), PDFArray)?.asArray() ?? []
  const taken = fields.filter((f) => {
    const name = context.lookupMaybe(f, PDFDict)?.get(PDFName.of('T'))
    return name instanceof PDFString && name.decodeText().startsWith('Document timestamp')
  }).length
  return taken ? `Document timestamp ${taken + 1}` : 'Document timestamp'
}

const BYTE_RANGE_PLACEHOLDER = `[0 ${'0'.repeat(10)} ${'0'.repeat(10)} ${'0'.repeat(10)}]`

/** `copy[key]` = the original's array (direct or indirect) plus `ref`; an indirect array is rewritten in place. */
function appendTo(original: PDFDict, copy: PDFDict, key: string, ref: PDFRef, put: (ref: PDFRef, body: PDFObject) => void) {
  const entry = original.get(PDFName.of(key))
  const array = entry ? original.context.lookup(entry, PDFArray) : undefined
  const items = array ? array.asArray() : []
  const grown = original.context.obj([...items, ref])
  if (entry instanceof PDFRef) put(entry, grown)
  else copy.set(PDFName.of(key), grown)
}

/**
 * An incremental update: `signed` as it is, then the objects, a classic cross-reference section
 * and a trailer pointing back to the previous one. `doc` gives the trailer's Root, Info and ID.
 */
export function appendRevision(signed: Buffer, objects: { ref: PDFRef; body: Buffer }[], doc: PDFDocument, size: number): Buffer {
  const prev = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(signed.subarray(-1024).toString('latin1'))?.[1]
  if (!prev) throw new Error('the file has no cross-reference offset')
  const parts: Buffer[] = [signed, Buffer.from('\n')]
  let offset = signed.length + 1
  const offsets = new Map<number, number>()
  for (const { ref, body } of objects) {
    offsets.set(ref.objectNumber, offset)
    const chunk = Buffer.concat([Buffer.from(`${ref.objectNumber} 0 obj\n`), body, Buffer.from('\nendobj\n')])
    parts.push(chunk)
    offset += chunk.length
  }
  const numbers = [...offsets.keys()].sort((a, b) => a - b)
  let xref = 'xref\n'
  for (let i = 0; i < numbers.length; ) {
    let j = i
    while (j + 1 < numbers.length && numbers[j + 1] === numbers[j]! + 1) j++
    xref += `${numbers[i]} ${j - i + 1}\n`
    for (let k = i; k <= j; k++) xref += `${String(offsets.get(numbers[k]!)).padStart(10, '0')} 00000 n\r\n`
    i = j + 1
  }
  const trailer = doc.context.trailerInfo
  const extra = [trailer.Info && `/Info ${trailer.Info.toString()}`, trailer.ID && `/ID ${trailer.ID.toString()}`].filter(Boolean).join(' ')
  xref += `trailer\n<< /Size ${size} /Root ${trailer.Root!.toString()} ${extra} /Prev ${prev} >>\nstartxref\n${offset}\n%%EOF\n`
  parts.push(Buffer.from(xref, 'latin1'))
  return Buffer.concat(parts)
}

/** Writes the ByteRange of the document timestamp, then the token over the bytes it covers. */
async function fillTimestamp(file: Buffer, objectNumber: number, contentsHex: number, timestamp: Timestamper): Promise<Uint8Array> {
  const at = file.lastIndexOf(`\n${objectNumber} 0 obj\n`)
  const rangeAt = file.indexOf(BYTE_RANGE_PLACEHOLDER, at)
  const start = file.indexOf('/Contents <', at) + '/Contents '.length
  const end = start + contentsHex + 2
  const range = `[0 ${start} ${end} ${file.length - end}]`.padEnd(BYTE_RANGE_PLACEHOLDER.length, ' ')
  file.write(range, rangeAt, 'latin1')
  const token = await timestamp(sha256(Buffer.concat([file.subarray(0, start), file.subarray(end)])))
  if (token.length * 2 > contentsHex) throw new Error(`the document timestamp (${token.length} bytes) exceeds the space kept for it`)
  file.write(token.toString('hex'), start + 1, 'latin1')
  return new Uint8Array(file.buffer, file.byteOffset, file.byteLength)
}

export function bytesOf(object: PDFObject): Buffer {
  const out = new Uint8Array(object.sizeInBytes())
  object.copyBytesInto(out, 0)
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength)
}
