import type { PDFDocumentProxy } from '../pdf/pdf.js'
import { usePageCanvas } from './usePdf.js'

/** A field's place on its page (percent of the page, as stored) and its recipient's colour. */
export interface ThumbField {
  id: string | number
  x: number
  y: number
  w: number
  h: number
  color: string
}

/** A4 portrait, the shape shown until the page tells its own. */
const A4 = 0.7071
/** Small pages draw fast: started this far ahead, they are ready as they scroll in. */
const AHEAD = '200px 0px'

/**
 * A page drawn small: at once a box of the page's shape (no jump when the pixels come), the
 * page's pixels once it nears the view, and the fields placed on it as boxes in their
 * recipient's colour. `doc` null: the box alone, while the file loads.
 */
export function PageThumb({ doc, page, fields }: { doc: PDFDocumentProxy | null; page: number; fields: readonly ThumbField[] }) {
  const { canvasRef, aspect, rendered } = usePageCanvas(doc, page, AHEAD)
  return (
    <span className="page-thumb" style={{ aspectRatio: aspect ?? A4 }} data-rendered={rendered || undefined} data-testid="page-thumb" aria-hidden="true">
      <canvas ref={canvasRef} />
      {fields.map((f) => (
        <span key={f.id} className="page-thumb-field" style={{ left: `${f.x}%`, top: `${f.y}%`, width: `${f.w}%`, height: `${f.h}%`, ['--c' as string]: f.color }} />
      ))}
    </span>
  )
}
