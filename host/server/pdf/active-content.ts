import { PDFArray, PDFDict, PDFName, PDFRawStream, PDFRef, PDFString, PDFHexString, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib'

/** Actions that run code, open files or send data: any dictionary of one of these kinds, referenced or not, stops being an action. */
const ACTIVE_ACTIONS = new Set(['JavaScript', 'Launch', 'ImportData', 'SubmitForm', 'GoToE', 'GoToR', 'Rendition', 'RichMediaExecute', 'Sound', 'Movie'])
/** Actions a reader may run from a link or bookmark without running code or opening anything but a page or a web address. */
const SAFE_ACTIONS = new Set(['GoTo', 'URI', 'Named'])
const name = (n: string) => PDFName.of(n)

/**
 * Removes what a reader could run or open by itself from the document, in place: JavaScript
 * (document, page, annotation and form-field actions, the names tree), the open action, additional
 * actions (/AA), launch, import, submit and other actions (any action but go-to, web link and named
 * page moves; chained /Next actions), embedded and attached files, and XFA forms. Returns what it
 * removed, one short label each (empty: nothing was there).
 */
export function stripActiveContent(doc: PDFDocument): string[] {
  const removed = new Set<string>()
  const catalog = doc.catalog
  for (const key of ['OpenAction', 'AA']) if (catalog.has(name(key))) catalog.delete(name(key)), removed.add(key)
  const names = catalog.lookup(name('Names'))
  if (names instanceof PDFDict) {
    for (const key of ['JavaScript', 'EmbeddedFiles']) if (names.has(name(key))) names.delete(name(key)), removed.add(key)
  }
  const form = catalog.lookup(name('AcroForm'))
  if (form instanceof PDFDict && form.has(name('XFA'))) form.delete(name('XFA')), removed.add('XFA')

  // Pages, annotations, form fields and outline items are dictionaries anywhere in the file,
  // often nested as direct objects: every dictionary is visited once.
  const seen = new Set<PDFObject>()
  const visit = (object: PDFObject | undefined) => {
    if (!object || seen.has(object)) return
    seen.add(object)
    if (object instanceof PDFArray) return object.asArray().forEach((o) => !(o instanceof PDFRef) && visit(o))
    const dict = object instanceof PDFRawStream ? object.dict : object instanceof PDFDict ? object : null
    if (!dict) return
    for (const key of ['AA', 'JS']) if (dict.has(name(key))) dict.delete(name(key)), removed.add(key)
    // An action's chained actions (an outline item's /Next is its sibling, and stays).
    if (dict.has(name('S')) && dict.has(name('Next'))) dict.delete(name('Next')), removed.add('Next')
    const kind = dict.lookup(name('S'))
    if (kind instanceof PDFName && ACTIVE_ACTIONS.has(kind.decodeText())) dict.delete(name('S')), removed.add(kind.decodeText())
    const action = dict.lookup(name('A'))
    if (action instanceof PDFDict && !isSafeAction(action)) dict.delete(name('A')), removed.add('A')
    if (dict.lookup(name('Subtype')) === name('FileAttachment') && dict.has(name('FS'))) dict.delete(name('FS')), removed.add('FileAttachment')
    for (const [, value] of dict.entries()) if (!(value instanceof PDFRef)) visit(value)
  }
  for (const [, object] of doc.context.enumerateIndirectObjects()) visit(object)
  return [...removed]
}

function isSafeAction(action: PDFDict): boolean {
  const type = action.lookup(name('S'))
  if (!(type instanceof PDFName) || !SAFE_ACTIONS.has(type.decodeText())) return false
  if (type !== name('URI')) return true
  const uri = action.lookup(name('URI'))
  const text = uri instanceof PDFString || uri instanceof PDFHexString ? uri.decodeText() : ''
  return /^(https?|mailto):/i.test(text.trim())
}
