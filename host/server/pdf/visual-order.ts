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

const RTL_LETTER = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/

/**
 * `line` in visual order as the pieces to hand pdf-lib one after the other, left to right: its font
 * layout reverses a whole string whose first letter is of a right-to-left script, so the line is
 * cut where the letters change script and each right-to-left piece is given reversed, to be turned back.
 */
export function drawnPieces(line: string, dir: 'ltr' | 'rtl'): string[] {
  const pieces: { rtl: boolean; text: string }[] = []
  for (const ch of visualOrder(line, dir)) {
    const last = pieces[pieces.length - 1]
    const rtl = /\p{L}/u.test(ch) ? RTL_LETTER.test(ch) : null
    if (last && (rtl === null || rtl === last.rtl)) last.text += ch
    else pieces.push({ rtl: rtl ?? false, text: ch })
  }
  return pieces.map((p) => (p.rtl ? [...p.text].reverse().join('') : p.text))
}
