/**
 * The signature's placeholder in a document about to be saved and signed: a signature dictionary
 * whose /ByteRange and /Contents @signpdf/signpdf fills in the saved bytes, an invisible widget on
 * the first page that holds it, and the AcroForm's /SigFlags. What @signpdf/placeholder-pdf-lib
 * 3.3 writes, made with the document's own library module: a PDF object of another copy of the
 * library (that package loads its own) is neither found nor replaced by this one's dictionaries.
 */
import { DEFAULT_BYTE_RANGE_PLACEHOLDER, ANNOTATION_FLAGS, SIG_FLAGS } from '@signpdf/utils'
import { PDFArray, PDFDict, PDFHexString, PDFInvalidObject, PDFName, PDFNumber, PDFString, type PDFDocument } from '@cantoo/pdf-lib'

export interface PlaceholderOptions {
  name: string
  reason: string
  location: string
  contactInfo: string
  signingTime: Date
  subFilter: string
  /** Room for the CMS in /Contents, in hex digits (two per byte). */
  signatureLength: number
  /** /Prop_Build /App /Name. */
  appName: string
}

export function addSignaturePlaceholder(doc: PDFDocument, o: PlaceholderOptions): void {
  const page = doc.getPages()[0]!
  // The last three numbers of the range are written when signing.
  const byteRange = PDFArray.withContext(doc.context)
  byteRange.push(PDFNumber.of(0))
  for (let i = 0; i < 3; i++) byteRange.push(PDFName.of(DEFAULT_BYTE_RANGE_PLACEHOLDER))
  const signatureDict = doc.context.obj({
    Type: 'Sig',
    Filter: 'Adobe.PPKLite',
    SubFilter: o.subFilter,
    ByteRange: byteRange,
    Contents: PDFHexString.of(String.fromCharCode(0).repeat(o.signatureLength)),
    Reason: PDFString.of(o.reason),
    M: PDFString.fromDate(o.signingTime),
    ContactInfo: PDFString.of(o.contactInfo),
    Name: PDFString.of(o.name),
    Location: PDFString.of(o.location),
    Prop_Build: { Filter: { Name: 'Adobe.PPKLite' }, App: { Name: o.appName } },
  })
  // Registered as bytes already written, so that the writer never puts it in an object stream.
  const signatureBytes = new Uint8Array(signatureDict.sizeInBytes())
  signatureDict.copyBytesInto(signatureBytes, 0)
  const signatureRef = doc.context.register(PDFInvalidObject.of(signatureBytes))

  const widgetRect = [0, 0, 0, 0]
  const rect = PDFArray.withContext(doc.context)
  for (const c of widgetRect) rect.push(PDFNumber.of(c))
  // An appearance, empty resources included: PDF/A asks for one, and Acrobat for the resources.
  const appearance = doc.context.formXObject([], { BBox: widgetRect, Resources: {} })
  const widget = doc.context.register(
    doc.context.obj({
      Type: 'Annot',
      Subtype: 'Widget',
      FT: 'Sig',
      Rect: rect,
      V: signatureRef,
      T: PDFString.of('Signature1'),
      F: ANNOTATION_FLAGS.PRINT,
      P: page.ref,
      AP: { N: doc.context.register(appearance) },
    }),
  )

  const annotations = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray) ?? doc.context.obj([])
  annotations.push(widget)
  page.node.set(PDFName.of('Annots'), annotations)

  let acroForm = doc.catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict)
  if (!acroForm) {
    acroForm = doc.context.obj({ Fields: [] })
    doc.catalog.set(PDFName.of('AcroForm'), doc.context.register(acroForm))
  }
  const flags = acroForm.has(PDFName.of('SigFlags')) ? (acroForm.get(PDFName.of('SigFlags')) as PDFNumber) : PDFNumber.of(0)
  acroForm.set(PDFName.of('SigFlags'), PDFNumber.of(flags.asNumber() | SIG_FLAGS.SIGNATURES_EXIST | SIG_FLAGS.APPEND_ONLY))
  const fields = acroForm.get(PDFName.of('Fields'))
  if (fields instanceof PDFArray) fields.push(widget)
  else acroForm.set(PDFName.of('Fields'), doc.context.obj([widget]))
}
