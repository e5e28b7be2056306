import { inflateSync } from 'node:zlib'
import { PNG } from 'pngjs'

/** Most pixels a PNG may declare to be decoded at all (16 MB as RGBA); read from its header first. */
export const MAX_PNG_PIXELS = 4_000_000

export interface PngHeader {
  width: number
  height: number
  bitDepth: number
  colorType: number
  interlaced: boolean
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }
const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] }
// Adam7 passes: x start, y start, x step, y step.
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const

/** The image's header (IHDR), or why it is not a PNG this host reads. Costs nothing whatever the image declares. */
export function readPngHeader(bytes: Uint8Array): PngHeader | string {
  if (bytes.length < 33 || !SIGNATURE.every((b, i) => bytes[i] === b)) return 'not a PNG'
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (view.getUint32(8) !== 13 || Buffer.from(bytes.subarray(12, 16)).toString('latin1') !== 'IHDR') return 'a PNG without its header'
  const header = { width: view.getUint32(16), height: view.getUint32(20), bitDepth: bytes[24]!, colorType: bytes[25]!, interlaced: bytes[28] === 1 }
  if (!header.width || !header.height) return 'a PNG of no pixels'
  if (!DEPTHS[header.colorType]?.includes(header.bitDepth) || bytes[26] !== 0 || bytes[27] !== 0 || bytes[28]! > 1) return 'a PNG of an unknown kind'
  return header
}

/** The bytes the image's data must inflate to, exactly (filter bytes included). */
function rawSize({ width, height, bitDepth, colorType, interlaced }: PngHeader): number {
  const row = (w: number) => 1 + Math.ceil((w * CHANNELS[colorType]! * bitDepth) / 8)
  if (!interlaced) return height * row(width)
  let total = 0
  for (const [x0, y0, dx, dy] of ADAM7) {
    const w = Math.ceil((width - x0) / dx)
    const h = Math.ceil((height - y0) / dy)
    if (w > 0 && h > 0) total += h * row(w)
  }
  return total
}

/**
 * Decodes a PNG to 8-bit RGBA within budgets checked before the work: at most `maxPixels` declared,
 * its compressed data inflating to no more than the declared size says. Throws a message fit for
 * the sender on anything else (broken data, a bomb, an unknown kind).
 */
export function decodePng(bytes: Uint8Array, maxPixels = MAX_PNG_PIXELS): { width: number; height: number; rgba: Uint8Array } {
  const header = readPngHeader(bytes)
  if (typeof header === 'string') throw new Error(`the image is ${header}`)
  if (header.width * header.height > maxPixels) {
    throw new Error(`the image is ${header.width} x ${header.height} pixels; at most ${maxPixels.toLocaleString('en')} pixels are accepted`)
  }
  // pngjs inflates an interlaced image without a bound: measure every PNG's data first, stopping at its declared size.
  const data: Buffer[] = []
  for (let at = 8; at + 8 <= bytes.length; ) {
    const length = new DataView(bytes.buffer, bytes.byteOffset + at).getUint32(0)
    const type = Buffer.from(bytes.subarray(at + 4, at + 8)).toString('latin1')
    if (type === 'IDAT') data.push(Buffer.from(bytes.subarray(at + 8, at + 8 + length)))
    if (type === 'IEND') break
    at += 12 + length
  }
  try {
    inflateSync(Buffer.concat(data), { maxOutputLength: rawSize(header) })
  } catch (err) {
    throw new Error(err instanceof RangeError ? 'the image holds more data than its size says' : 'the image data is broken')
  }
  let png: PNG
  try {
    png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
  } catch {
    throw new Error('the image data is broken')
  }
  return { width: png.width, height: png.height, rgba: png.data }
}

/** An 8-bit RGBA PNG of the pixels. */
export function encodePng(image: { width: number; height: number; rgba: Uint8Array }): Buffer {
  const png = new PNG({ width: image.width, height: image.height, colorType: 6, inputColorType: 6, bitDepth: 8 })
  png.data = Buffer.from(image.rgba.buffer, image.rgba.byteOffset, image.rgba.byteLength)
  return PNG.sync.write(png, { colorType: 6, deflateLevel: 9 })
}

/** The image scaled down (each pixel the average of the area it covers) to fit in `maxSide` x `maxSide`; the same image when it fits. */
export function fitWithin(image: { width: number; height: number; rgba: Uint8Array }, maxSide: number): { width: number; height: number; rgba: Uint8Array } {
  const scale = Math.min(1, maxSide / image.width, maxSide / image.height)
  if (scale === 1) return image
  const width = Math.max(1, Math.round(image.width * scale))
  const height = Math.max(1, Math.round(image.height * scale))
  const out = new Uint8Array(width * height * 4)
  for (let y = 0; y < height; y++) {
    const sy0 = Math.floor((y * image.height) / height)
    const sy1 = Math.max(sy0 + 1, Math.floor(((y + 1) * image.height) / height))
    for (let x = 0; x < width; x++) {
      const sx0 = Math.floor((x * image.width) / width)
      const sx1 = Math.max(sx0 + 1, Math.floor(((x + 1) * image.width) / width))
      const sum = [0, 0, 0, 0]
      for (let sy = sy0; sy < sy1; sy++) {
        for (let sx = sx0; sx < sx1; sx++) {
          const i = (sy * image.width + sx) * 4
          for (let c = 0; c < 4; c++) sum[c]! += image.rgba[i + c]!
        }
      }
      const n = (sy1 - sy0) * (sx1 - sx0)
      for (let c = 0; c < 4; c++) out[(y * width + x) * 4 + c] = Math.round(sum[c]! / n)
    }
  }
  return { width, height, rgba: out }
}
