/**
 * A team's logo (docs/branding.md): a stranger-controlled image that the signing pages show and
 * the e-mails carry. Only PNG and JPEG, told by their bytes (never by a name or a declared type:
 * SVG and other markup can run script); the byte count and the declared pixel size are checked
 * before any decoding. A PNG is decoded within those budgets and stored re-encoded (no text
 * chunks, at most LOGO_STORED_SIDE a side); a JPEG is walked to its frame header and kept as sent.
 */
import { decodePng, encodePng, fitWithin, readPngHeader } from './png.js'

/** Largest logo accepted as sent (and as stored). */
export const MAX_LOGO_BYTES = 256 * 1024
/** The longest `data:` URL a logo of MAX_LOGO_BYTES makes, with room for its prefix. */
const MAX_LOGO_URL = Math.ceil(MAX_LOGO_BYTES / 3) * 4 + 100
/** The console's logo route, and its body budget (api/body-budget.ts): a little over a logo too large, so the domain says why. */
export const LOGO_ROUTE = '/team/branding/logo'
export const LOGO_BODY_LIMIT = 2 * MAX_LOGO_URL
/** Most pixels a logo may declare, and the longest side. */
export const MAX_LOGO_PIXELS = 4_000_000
export const MAX_LOGO_SIDE = 4096
/** Longest side of a stored PNG logo: a header shows it at 40 px high, an e-mail at 48. */
export const LOGO_STORED_SIDE = 512

export type LogoType = 'image/png' | 'image/jpeg'

export interface Logo {
  bytes: Uint8Array
  type: LogoType
  width: number
  height: number
}

/** Why a logo was refused: `code` for the API's answer, `message` for the sender. */
export class LogoRefused extends Error {
  constructor(
    readonly code: 'LOGO_TOO_LARGE' | 'UNSUPPORTED_IMAGE' | 'INVALID_IMAGE',
    message: string,
  ) {
    super(message)
  }
}

const isPng = (b: Uint8Array) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47
const isJpeg = (b: Uint8Array) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff

/** Markup (SVG, HTML, XML) after any BOM and white space: refused by name, so the sender knows why. */
function looksLikeMarkup(b: Uint8Array): boolean {
  const head = Buffer.from(b.subarray(0, 512)).toString('utf8').replace(/^\uFEFF/, '').trimStart()
  return head.startsWith('<')
}

function checkSize(width: number, height: number): void {
  if (!width || !height) throw new LogoRefused('INVALID_IMAGE', 'the image has no pixels')
  if (width > MAX_LOGO_SIDE || height > MAX_LOGO_SIDE || width * height > MAX_LOGO_PIXELS) {
    throw new LogoRefused('LOGO_TOO_LARGE', `the image is ${width} x ${height} pixels; at most ${MAX_LOGO_SIDE} a side and ${MAX_LOGO_PIXELS.toLocaleString('en')} pixels are accepted`)
  }
}

/** The frame size a JPEG declares (its SOF segment), read by walking its segments to the scan; throws if it is not a whole JPEG. */
function jpegSize(b: Uint8Array): { width: number; height: number } {
  if (b.length < 4 || b[b.length - 2] !== 0xff || b[b.length - 1] !== 0xd9) throw new LogoRefused('INVALID_IMAGE', 'the JPEG is cut short')
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength)
  let size: { width: number; height: number } | null = null
  for (let at = 2; at + 4 <= b.length; ) {
    if (b[at] !== 0xff) throw new LogoRefused('INVALID_IMAGE', 'the JPEG is broken')
    const marker = b[at + 1]!
    if (marker === 0xff) {
      at++ // fill byte
      continue
    }
    const length = view.getUint16(at + 2)
    if (length < 2 || at + 2 + length > b.length) throw new LogoRefused('INVALID_IMAGE', 'the JPEG is broken')
    // SOF0..SOF15, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (length < 8) throw new LogoRefused('INVALID_IMAGE', 'the JPEG is broken')
      size = { height: view.getUint16(at + 5), width: view.getUint16(at + 7) }
    }
    if (marker === 0xda) break // start of scan: the header is over
    at += 2 + length
  }
  if (!size) throw new LogoRefused('INVALID_IMAGE', 'the JPEG has no frame header')
  return size
}

/**
 * What the bytes are, from their size, signature and header alone (nothing decoded), or
 * LogoRefused: run before a thread decodes anything.
 */
export function checkLogo(bytes: Uint8Array): { type: LogoType; width: number; height: number } {
  if (bytes.byteLength > MAX_LOGO_BYTES) throw new LogoRefused('LOGO_TOO_LARGE', `the image is ${bytes.byteLength} bytes; at most ${MAX_LOGO_BYTES} are accepted`)
  if (isPng(bytes)) {
    const header = readPngHeader(bytes)
    if (typeof header === 'string') throw new LogoRefused('INVALID_IMAGE', `the image is ${header}`)
    checkSize(header.width, header.height)
    return { type: 'image/png', width: header.width, height: header.height }
  }
  if (isJpeg(bytes)) {
    const size = jpegSize(bytes)
    checkSize(size.width, size.height)
    return { type: 'image/jpeg', ...size }
  }
  if (looksLikeMarkup(bytes)) throw new LogoRefused('UNSUPPORTED_IMAGE', 'SVG and other markup are not accepted: send a PNG or JPEG')
  throw new LogoRefused('UNSUPPORTED_IMAGE', 'the image is neither a PNG nor a JPEG')
}

/** The logo as stored, or LogoRefused saying why not. A PNG is decoded: run it in a heavy-work thread (workers/heavy-tasks.ts). */
export function normalizeLogo(bytes: Uint8Array): Logo {
  const checked = checkLogo(bytes)
  if (checked.type === 'image/jpeg') return { bytes, ...checked }
  let decoded
  try {
    decoded = decodePng(bytes, MAX_LOGO_PIXELS)
  } catch (err) {
    throw new LogoRefused('INVALID_IMAGE', (err as Error).message)
  }
  const fitted = fitWithin(decoded, LOGO_STORED_SIDE)
  const encoded = new Uint8Array(encodePng(fitted))
  if (encoded.byteLength > MAX_LOGO_BYTES) throw new LogoRefused('LOGO_TOO_LARGE', `the image is too detailed: re-encoded it exceeds ${MAX_LOGO_BYTES} bytes`)
  return { bytes: encoded, type: 'image/png', width: fitted.width, height: fitted.height }
}
