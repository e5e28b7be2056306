import { decodePng, encodePng, fitWithin } from './png.js'

/** Largest signature image accepted as sent, and as stored once re-encoded. */
export const MAX_SIGNATURE_BYTES = 512 * 1024
/** Longest side of a stored signature: a larger one is scaled down when submitted. */
export const SIGNATURE_MAX_SIDE = 1200

/**
 * The signature as the host stores and stamps it: decoded within the pixel and inflation budgets,
 * scaled to fit SIGNATURE_MAX_SIDE and re-encoded as an 8-bit RGBA PNG, so that what reaches
 * sealing is always a small, well-formed image. Throws a message for the sender when it cannot be.
 */
export function normalizeSignature(png: Uint8Array): Uint8Array {
  const encoded = encodePng(fitWithin(decodePng(png), SIGNATURE_MAX_SIDE))
  if (encoded.byteLength > MAX_SIGNATURE_BYTES) throw new Error(`the image is too detailed: re-encoded it exceeds ${MAX_SIGNATURE_BYTES} bytes`)
  return new Uint8Array(encoded)
}
