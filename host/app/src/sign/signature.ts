/**
 * Signature images: strokes drawn on the pad, a typed name in a handwriting font, or an
 * uploaded picture, each fitted (trimmed, centred) into a PNG with the field's proportions at
 * about twice its size on the page, and kept under MAX_BYTES.
 */
import fontUrl from '@fontsource/dancing-script/files/dancing-script-latin-400-normal.woff2?url'

export const SIGNATURE_FONT = 'Dancing Script'
/** The ink: a dark blue that reads as a pen on paper, on a light or a dark page alike. */
export const INK = '#14246b'
const MAX_BYTES = 200_000
const MAX_DATA_URL = Math.ceil((MAX_BYTES * 4) / 3) + 'data:image/png;base64,'.length

export interface Point {
  x: number
  y: number
  /** 0..1; 0.5 for devices without pressure. */
  p: number
}
export type Stroke = Point[]

export interface OutputSize {
  width: number
  height: number
}

/**
 * The PNG size for a field: its width on a letter-sized page (612 pt) at about 2x, within
 * sensible bounds, and the field's own proportions (`aspect` = width / height as shown).
 */
export function outputSize(widthPercent: number, aspect: number): OutputSize {
  const safeAspect = Number.isFinite(aspect) && aspect > 0 ? Math.min(Math.max(aspect, 0.5), 12) : 3
  const width = Math.round(Math.min(Math.max((widthPercent / 100) * 612 * 2, 360), 1000))
  return { width, height: Math.max(Math.round(width / safeAspect), 60) }
}

// ---- drawing -------------------------------------------------------------------------------

/** Line width at pressure p for a base width. */
const widthAt = (base: number, p: number) => base * (0.55 + p * 0.9)

/**
 * Draws strokes smoothed with quadratic curves through the midpoints of successive points;
 * each segment takes the width of its pressure, so pens draw thick and thin.
 */
export function drawStrokes(ctx: CanvasRenderingContext2D, strokes: Stroke[], base: number, map: (pt: Point) => { x: number; y: number } = (pt) => pt) {
  ctx.lineCap = 'round'
  ctx.lineJoin = 'round'
  ctx.strokeStyle = INK
  ctx.fillStyle = INK
  for (const stroke of strokes) {
    const pts = stroke.map((pt) => ({ ...map(pt), p: pt.p }))
    if (pts.length === 0) continue
    if (pts.length === 1) {
      const a = pts[0]!
      ctx.beginPath()
      ctx.arc(a.x, a.y, widthAt(base, a.p) / 2, 0, Math.PI * 2)
      ctx.fill()
      continue
    }
    let from = pts[0]!
    for (let i = 1; i < pts.length; i++) {
      const ctrl = pts[i]!
      const next = pts[i + 1]
      const to = next ? { x: (ctrl.x + next.x) / 2, y: (ctrl.y + next.y) / 2, p: (ctrl.p + next.p) / 2 } : ctrl
      ctx.beginPath()
      ctx.lineWidth = widthAt(base, ctrl.p)
      ctx.moveTo(from.x, from.y)
      ctx.quadraticCurveTo(ctrl.x, ctrl.y, to.x, to.y)
      ctx.stroke()
      from = to
    }
  }
}

function bounds(strokes: Stroke[]) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity
  for (const s of strokes) for (const pt of s) {
    x0 = Math.min(x0, pt.x)
    y0 = Math.min(y0, pt.y)
    x1 = Math.max(x1, pt.x)
    y1 = Math.max(y1, pt.y)
  }
  return { x0, y0, w: Math.max(x1 - x0, 1), h: Math.max(y1 - y0, 1) }
}

/** The drawn strokes (in pad pixels, drawn with width `base`), trimmed and fitted into a PNG. */
export function strokesToPng(strokes: Stroke[], base: number, size: OutputSize): string {
  const b = bounds(strokes)
  const pad = base * 1.5
  const { canvas, ctx, place } = fitted(b.w + pad * 2, b.h + pad * 2, size)
  const k = place.scale
  drawStrokes(ctx, strokes, base * k, (pt) => ({ x: place.x + (pt.x - b.x0 + pad) * k, y: place.y + (pt.y - b.y0 + pad) * k }))
  return toPng(canvas)
}

// ---- typed ---------------------------------------------------------------------------------

let font: Promise<void> | undefined

/** Loads the handwriting font (shipped with the app, not fetched from a third party) once. */
export function loadSignatureFont(): Promise<void> {
  font ??= (async () => {
    const face = new FontFace(SIGNATURE_FONT, `url(${fontUrl}) format('woff2')`, { style: 'normal', weight: '400', display: 'swap' })
    document.fonts.add(await face.load())
  })().catch((e: unknown) => {
    font = undefined
    throw e
  })
  return font
}

export async function typedToPng(text: string, size: OutputSize): Promise<string> {
  await loadSignatureFont().catch(() => {}) // a fallback cursive still makes a signature
  const family = `'${SIGNATURE_FONT}', cursive`
  const probe = document.createElement('canvas').getContext('2d')!
  probe.font = `100px ${family}`
  const m = probe.measureText(text)
  const w = Math.max(m.actualBoundingBoxLeft + m.actualBoundingBoxRight, 1)
  const h = Math.max(m.actualBoundingBoxAscent + m.actualBoundingBoxDescent, 1)
  const pad = 12
  const { canvas, ctx, place } = fitted(w + pad * 2, h + pad * 2, size)
  ctx.font = `${100 * place.scale}px ${family}`
  ctx.fillStyle = INK
  ctx.textBaseline = 'alphabetic'
  ctx.fillText(text, place.x + (m.actualBoundingBoxLeft + pad) * place.scale, place.y + (m.actualBoundingBoxAscent + pad) * place.scale)
  return toPng(canvas)
}

// ---- uploaded ------------------------------------------------------------------------------

export const UPLOAD_TYPES = ['image/png', 'image/jpeg']

/** A PNG or JPEG file, converted to a PNG of the field's proportions through a canvas. */
export async function imageToPng(file: Blob, size: OutputSize): Promise<string> {
  if (!UPLOAD_TYPES.includes(file.type)) throw new Error('unsupported image type')
  const bitmap = await createImageBitmap(file)
  try {
    const { canvas, ctx, place } = fitted(bitmap.width, bitmap.height, size, 0.04)
    ctx.imageSmoothingQuality = 'high'
    ctx.drawImage(bitmap, place.x, place.y, bitmap.width * place.scale, bitmap.height * place.scale)
    return toPng(canvas)
  } finally {
    bitmap.close()
  }
}

// ---- shared --------------------------------------------------------------------------------

/** A canvas of `size`, and where a w x h picture goes in it: as large as fits, centred. */
function fitted(w: number, h: number, size: OutputSize, margin = 0.02) {
  const canvas = document.createElement('canvas')
  canvas.width = size.width
  canvas.height = size.height
  const ctx = canvas.getContext('2d')!
  const innerW = size.width * (1 - margin * 2)
  const innerH = size.height * (1 - margin * 2)
  const scale = Math.min(innerW / w, innerH / h)
  return { canvas, ctx, place: { scale, x: (size.width - w * scale) / 2, y: (size.height - h * scale) / 2 } }
}

/** The canvas as a PNG data URL, scaled down until it is under MAX_BYTES (photos can be large). */
function toPng(canvas: HTMLCanvasElement): string {
  let url = canvas.toDataURL('image/png')
  let current = canvas
  while (url.length > MAX_DATA_URL && current.width > 120) {
    const smaller = document.createElement('canvas')
    smaller.width = Math.round(current.width * 0.7)
    smaller.height = Math.round(current.height * 0.7)
    const ctx = smaller.getContext('2d')!
    ctx.imageSmoothingQuality = 'high'
    ctx.drawImage(current, 0, 0, smaller.width, smaller.height)
    current = smaller
    url = current.toDataURL('image/png')
  }
  return url
}
