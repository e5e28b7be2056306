/**
 * What a PDF's later incremental updates did to a signed revision. A seal that does not reach the
 * end of the file is still good when everything after it is validation data: a DSS dictionary
 * (certificates, CRLs, OCSP answers, VRI), document timestamps and the invisible signature fields
 * they sit in. That is how B-LT and B-LTA are made. Anything that changes what the document shows
 * (a page added, content or an annotation replaced, a visible field) is a change; any other byte
 * after the seal (data after the last %%EOF, a comment, an object nothing refers to) is neither,
 * and the seal does not cover it either.
 *
 * The check compares the objects as the signed revision has them with the whole file's, walking
 * from the catalog: each object reached that the later updates redefine or add must be one of the
 * few a validation update may touch, and differ only in what such an update adds. Then every byte
 * after the revision must belong to a whole incremental update, and every object those updates
 * define must be one the walk reached, the DSS or a document timestamp.
 */
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRef, type PDFObject } from '@cantoo/pdf-lib'
import { hiddenHeader, onlyWholeUpdates, referencedRevision, scannedRevision, type ReadPdf, type RevisionView } from './reading.js'

/**
 * 'none': nothing after the revision. 'validation': only validation data. 'changes': updates
 * that change what the document shows (or that readers would resolve differently). 'unrecognized':
 * bytes that are not validation data and that no reader shows as a change of the document.
 */
export type UpdatesAfter = 'none' | 'validation' | 'changes' | 'unrecognized'

const name = (key: string) => PDFName.of(key)

/** A value as the view has it: a reference resolved, anything else as it is. */
const resolve = (view: RevisionView, value: PDFObject | undefined): PDFObject | undefined => (value instanceof PDFRef ? view.lookup(value) : value)

/** What a DSS dictionary holds (ISO 32000-2, 12.8.4.3). */
const DSS_KEYS = new Set(['Type', 'VRI', 'Certs', 'OCSPs', 'CRLs'])

/**
 * `end`: where the signed revision ends (its ByteRange's last byte). The signed revision and the
 * whole file are compared as each kind of reader resolves them (reading.ts): by the
 * cross-reference chain, and by scanning the objects in file order. When either finds anything
 * but validation data the answer is 'changes'; so is a chain that cannot be followed, one that lists
 * an object twice in one section, or an object header hidden where no parser reads it (a
 * repairing reader's find). When both find only validation data, the bytes after `end` must
 * still be whole incremental updates defining nothing but what the walk met, the DSS and the
 * document timestamps' fields: else 'unrecognized'. The file is not parsed again: objects are read
 * where the cross-reference or an update points, once per place, from the one parse of the file.
 */
export function updatesAfter(pdf: ReadPdf, end: number): UpdatesAfter {
  if (end >= pdf.bytes.length) return 'none'
  if (hiddenHeader(pdf, end)) return 'changes'
  const defined = definedAfter(pdf, end)
  const reached = new Set<string>() // objects the walks met: the document's, its DSS's and its timestamps'
  let dssOnly: boolean
  try {
    const signed = referencedRevision(pdf, end)
    const whole = referencedRevision(pdf, pdf.bytes.length)
    const { Root, Encrypt } = pdf.doc.context.trailerInfo
    const scanned = [scannedRevision(pdf, end, { root: signed.root, encrypt: signed.encrypt }), scannedRevision(pdf, pdf.bytes.length, { root: Root, encrypt: Encrypt })]
    if (!onlyValidation(signed, whole, reached) || !onlyValidation(scanned[0]!, scanned[1]!, reached)) return 'changes'
    // A DSS that a later update replaced (a renewal writes a new one naming the old one's streams) is validation data still.
    const replaced = [...defined].flatMap(([tag, objects]) => objects.filter(isDss).map((dss) => ({ tag, dss })))
    replaced.forEach(({ tag, dss }) => reach(whole, [refOf(tag), dss], reached))
    const current = [whole, scanned[1]!].map((view) => resolve(view, catalogOf(view)?.get(name('DSS'))))
    dssOnly = [...current, ...replaced.map((r) => r.dss)].every((dss) => dss === undefined || (dss instanceof PDFDict && dss.keys().every((key) => DSS_KEYS.has(key.decodeText()))))
  } catch {
    return 'changes'
  }
  return dssOnly && onlyWholeUpdates(pdf, end) && [...defined.keys()].every((tag) => reached.has(tag)) ? 'validation' : 'unrecognized'
}

/** What the bytes after `end` define: per object, each definition the parser met there (object streams' members included). */
function definedAfter(pdf: ReadPdf, end: number): Map<string, PDFObject[]> {
  const defined = new Map<string, PDFObject[]>()
  for (const [tag, list] of pdf.definitions) {
    const objects = list.filter((d) => d.end > end).map((d) => d.object)
    if (objects.length) defined.set(tag, objects)
  }
  return defined
}

/** A dictionary that calls itself a DSS. */
const isDss = (object: PDFObject | undefined): object is PDFDict => object instanceof PDFDict && object.get(name('Type')) === name('DSS')

/** The catalog a view's trailer names. */
function catalogOf(view: RevisionView): PDFDict | undefined {
  const catalog = resolve(view, view.root)
  return catalog instanceof PDFDict ? catalog : undefined
}

/**
 * Whether `after` shows what `before` shows, with only validation data added. Every object the
 * walk meets goes into `reached`: the document's, and its DSS's and new signature fields' (walked
 * last, after the document held).
 */
function onlyValidation(before: RevisionView, after: RevisionView, reached: Set<string>): boolean {
  const root = after.root
  const signedRoot = before.root
  if (!(root instanceof PDFRef) || !(signedRoot instanceof PDFRef) || root.tag !== signedRoot.tag) return false
  // Encryption added (or changed) later changes how every string and stream reads.
  if ((before.encrypt && text(before.encrypt)) !== (after.encrypt && text(after.encrypt))) return false
  const catalog = after.lookup(root)
  if (!(catalog instanceof PDFDict)) return false
  const formRef = catalog.get(name('AcroForm'))
  const accounted = new Set<string>() // changed objects found to change only as a validation update may
  const added = new Set<string>() // the new invisible signature fields: not walked into
  const seen = new Set<string>()
  const stack: PDFObject[] = [root]
  while (stack.length) {
    const value = stack.pop()!
    if (!(value instanceof PDFRef)) {
      for (const child of childrenOf(value, false)) stack.push(child) // one by one: an array may hold more items than a call takes arguments
      continue
    }
    if (seen.has(value.tag) || added.has(value.tag)) continue
    seen.add(value.tag)
    const object = after.lookup(value)
    const old = before.lookup(value)
    // The same definition read by both (the usual case) is unchanged without serializing it.
    if (!accounted.has(value.tag) && object !== old && (object === undefined || old === undefined || text(old) !== text(object))) {
      if (object === undefined) return false // an object the signed revision shows, taken away
      const change = allowedChange(before, after, value, object, value.tag === root.tag, formRef)
      if (!change) return false
      change.accounted.forEach((tag) => accounted.add(tag))
      change.added.forEach((tag) => added.add(tag))
    }
    if (object !== undefined) for (const child of childrenOf(object, value.tag === root.tag)) stack.push(child)
  }
  seen.forEach((tag) => reached.add(tag))
  reach(after, [catalog.get(name('DSS')), ...[...added].map((tag) => refOf(tag))], reached)
  return true
}

/** Every object reachable from `from` in `view`, into `reached` (where the walk stops too). */
function reach(view: RevisionView, from: (PDFObject | undefined)[], reached: Set<string>): void {
  const stack = from.filter((value) => value !== undefined)
  while (stack.length) {
    const value = stack.pop()!
    if (value instanceof PDFRef) {
      if (reached.has(value.tag)) continue
      reached.add(value.tag)
    }
    const object = resolve(view, value)
    if (object !== undefined) for (const child of childrenOf(object, false)) stack.push(child)
  }
}

/** The reference a tag ("12 0 R") names. */
function refOf(tag: string): PDFRef {
  const [number, generation] = tag.split(' ').map(Number)
  return PDFRef.of(number!, generation)
}

interface Change {
  /** Changed objects this change accounts for (the object itself, an indirect array it grows). */
  accounted: string[]
  /** Signature fields it adds. */
  added: string[]
}
const merge = (tag: string, grown: Change | null): Change | null => grown && { accounted: [tag, ...grown.accounted], added: grown.added }

/** What a walk goes on to: a dictionary's values (the catalog's DSS left out), an array's items, a stream's dictionary. */
function childrenOf(object: PDFObject, isCatalog: boolean): PDFObject[] {
  if (object instanceof PDFArray) return object.asArray()
  const dict = object instanceof PDFDict ? object : (object as { dict?: PDFDict }).dict
  if (!(dict instanceof PDFDict)) return []
  return dict.entries().filter(([key]) => !(isCatalog && key === name('DSS'))).map(([, v]) => v)
}

/** When `ref` (changed) differs from its signed revision only as a validation update may change it: what it accounts for; else null. */
function allowedChange(before: RevisionView, after: RevisionView, ref: PDFRef, object: PDFObject, isCatalog: boolean, formRef: PDFObject | undefined): Change | null {
  const old = before.lookup(ref)
  if (!(object instanceof PDFDict) || !(old instanceof PDFDict)) return null
  if (isCatalog) {
    // The catalog may gain a DSS and a form (or its form's fields, when the form is direct).
    if (!sameExcept(old, object, ['DSS', 'AcroForm'])) return null
    const oldForm = old.get(name('AcroForm'))
    const form = object.get(name('AcroForm'))
    const unchanged = { accounted: [ref.tag], added: [] }
    if (form instanceof PDFRef || (oldForm && form && text(oldForm) === text(form))) return unchanged
    if (!(form instanceof PDFDict)) return oldForm ? null : unchanged
    const oldDict = resolve(before, oldForm)
    return merge(ref.tag, formChange(before, after, oldDict instanceof PDFDict ? oldDict : undefined, form))
  }
  if (formRef instanceof PDFRef && ref.tag === formRef.tag) return merge(ref.tag, formChange(before, after, old, object))
  if (object.get(name('Type')) === name('Page')) {
    if (!sameExcept(old, object, ['Annots'])) return null
    return merge(ref.tag, grownBySignatures(before, after, old.get(name('Annots')), object.get(name('Annots'))))
  }
  return null
}

/** A form that gained signature fields (and SigFlags), nothing else. */
function formChange(before: RevisionView, after: RevisionView, old: PDFDict | undefined, form: PDFDict): Change | null {
  if (old && !sameExcept(old, form, ['Fields', 'SigFlags'])) return null
  if (!old && form.keys().some((k) => k !== name('Fields') && k !== name('SigFlags'))) return null
  return grownBySignatures(before, after, old?.get(name('Fields')), form.get(name('Fields')))
}

/**
 * An array (of annotations or fields) that kept its items and gained only invisible signature
 * fields: new objects, FT /Sig, with a zero-area rectangle, empty or holding a document timestamp
 * (another signature is no validation data).
 */
function grownBySignatures(before: RevisionView, after: RevisionView, oldEntry: PDFObject | undefined, entry: PDFObject | undefined): Change | null {
  const oldArray = resolve(before, oldEntry)
  if (oldEntry && !(oldArray instanceof PDFArray)) return null
  const oldItems = oldArray instanceof PDFArray ? oldArray.asArray() : []
  const array = resolve(after, entry)
  if (!(array instanceof PDFArray)) return oldItems.length ? null : { accounted: [], added: [] }
  const items = array.asArray()
  if (items.length < oldItems.length || oldItems.some((item, i) => text(item) !== text(items[i]!))) return null
  for (const added of items.slice(oldItems.length)) {
    if (!(added instanceof PDFRef) || before.lookup(added) !== undefined) return null
    const field = after.lookup(added)
    if (!(field instanceof PDFDict) || field.get(name('FT')) !== name('Sig') || !invisible(after, field) || !timestampOrEmpty(after, field)) return null
  }
  // The added fields show nothing: they are not walked into.
  return { accounted: entry instanceof PDFRef ? [entry.tag] : [], added: items.slice(oldItems.length).map((r) => (r as PDFRef).tag) }
}

/** The field's value is none, or a document timestamp's signature dictionary. */
function timestampOrEmpty(view: RevisionView, field: PDFDict): boolean {
  const value = resolve(view, field.get(name('V')))
  if (value === undefined) return true
  return value instanceof PDFDict && (value.get(name('Type')) === name('DocTimeStamp') || value.get(name('SubFilter')) === name('ETSI.RFC3161'))
}

function invisible(view: RevisionView, field: PDFDict): boolean {
  const rect = resolve(view, field.get(name('Rect')))
  if (!(rect instanceof PDFArray)) return !field.has(name('AP'))
  const [x1, y1, x2, y2] = rect.asArray().map((n) => resolve(view, n)).map((n) => (n instanceof PDFNumber ? n.asNumber() : NaN))
  return x1 === x2 || y1 === y2
}

/** The two dictionaries hold the same values under every key but `except`. */
function sameExcept(a: PDFDict, b: PDFDict, except: string[]): boolean {
  const skip = new Set(except.map(name))
  const keys = new Set([...a.keys(), ...b.keys()].filter((k) => !skip.has(k)))
  for (const key of keys) {
    const x = a.get(key)
    const y = b.get(key)
    if (x === undefined || y === undefined ? x !== y : text(x) !== text(y)) return false
  }
  return true
}

function text(object: PDFObject): string {
  const out = new Uint8Array(object.sizeInBytes())
  object.copyBytesInto(out, 0)
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength).toString('latin1')
}
