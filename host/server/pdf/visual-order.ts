/**
 * pdf-lib draws a string's characters left to right as given, so a right-to-left line (Hebrew, or
 * Hebrew with Latin names and numbers in it) has to be put in visual order first: the Unicode
 * bidirectional algorithm, line by line, after wrapping.
 */
import bidiFactory from 'bidi-js'

const bidi = bidiFactory()

/** `line` (one row, already wrapped) in the order its characters appear from left to right. */
export function visualOrder(line: string, dir: 'ltr' | 'rtl'): string {
  if (dir === 'ltr' && !/[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/.test(line)) return line
  const levels = bidi.getEmbeddingLevels(line, dir)
  const chars = line.split('')
  // Brackets and the like turn round in a right-to-left run, as in print.
  for (const [i, mirrored] of bidi.getMirroredCharactersMap(line, levels.levels)) chars[i] = mirrored
  for (const [start = 0, end = -1] of bidi.getReorderSegments(line, levels)) {
    const run = chars.slice(start, end + 1).reverse()
    chars.splice(start, run.length, ...run)
  }
  return chars.join('')
}
