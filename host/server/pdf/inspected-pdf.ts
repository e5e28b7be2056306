/** A checked upload: the bytes to store (active content removed; the upload itself when it had none). */
export interface InspectedPdf {
  pageCount: number
  bytes: Uint8Array
  /** What was removed (e.g. `OpenAction`, `JavaScript`, `AA`); empty when the upload is stored as sent. */
  removed: string[]
}
