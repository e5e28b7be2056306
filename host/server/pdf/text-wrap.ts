import type { TextMeasure } from './text-font.js'

/** Longest value shown: user agents and names come from the signer and could be anything. */
const MAX_VALUE_LENGTH = 1000

/**
 * Splits text into rows no wider than `width`: at spaces, or inside a word too long for a row.
 * Each word is measured once (text layout is the slow part of drawing), rows as sums of words.
 */
export function wrap(text: string, font: TextMeasure, size: number, width: number): string[] {
  const clean = text.replace(/\s+/g, ' ').trim()
  const shown = clean.length > MAX_VALUE_LENGTH ? `${clean.slice(0, MAX_VALUE_LENGTH)}…` : clean
  const space = font.widthOfTextAtSize(' ', size)
  const rows: string[] = []
  let row = ''
  let used = 0
  const put = (piece: string, w: number) => {
    if (row && used + w > width) {
      rows.push(row)
      row = ''
      used = 0
    }
    row += piece
    used += w
  }
  for (const word of shown.split(' ')) {
    const w = font.widthOfTextAtSize(word, size)
    if (row && used + space + w <= width) {
      row += ' ' + word
      used += space + w
    } else if (w <= width) {
      if (row) rows.push(row)
      row = word
      used = w
    } else {
      // A word wider than a row (an address, a user agent, a sentence of Japanese or Chinese, written
      // without spaces) breaks after its punctuation, else between characters.
      if (row) {
        rows.push(row)
        row = ''
        used = 0
      }
      for (const piece of word.split(/(?<=[@./\-_;,:)、。，；：）」』])/)) {
        const pw = font.widthOfTextAtSize(piece, size)
        if (pw <= width) put(piece, pw)
        else for (const ch of piece) put(ch, font.widthOfTextAtSize(ch, size))
      }
    }
  }
  if (row || !rows.length) rows.push(row)
  return rows
}
