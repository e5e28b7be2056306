import type { FormField } from './form-fields.js'

/** A checked upload: the bytes to store (active content removed; the upload itself when it had none). */
export interface InspectedPdf {
  pageCount: number
  bytes: Uint8Array
  /** What was removed (e.g. `OpenAction`, `JavaScript`, `AA`); empty when the upload is stored as sent. */
  removed: string[]
  /** The form fields it holds (AcroForm), as envelope fields could take them; empty for a PDF with no form. */
  formFields: FormField[]
}
