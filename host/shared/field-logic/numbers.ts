/**
 * Number text as signers type it and as formulas produce it: one canonical text per result, so the
 * page and the server compare the same thing.
 */

// Digits with an optional decimal part; a comma is a decimal separator (no thousands separators,
// no exponents: "1,234" means 1.234, as a European signer writes it).
const NUMBER_TEXT = /^[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)$/

/** The number a text holds, or null when it holds none (or one too large to be finite). */
export function parseNumber(text: string): number | null {
  const trimmed = text.trim()
  if (trimmed.length > 400 || !NUMBER_TEXT.test(trimmed)) return null
  const n = Number(trimmed.replace(',', '.'))
  return Number.isFinite(n) ? n : null
}

/**
 * The canonical text of a number: integers as `String(n)`, others rounded to 10 decimals without
 * trailing zeros (so float noise like 0.1 + 0.2 reads "0.3"); "-0" reads "0".
 */
export function formatNumber(n: number): string {
  if (Number.isInteger(n) || !Number.isFinite(n)) return Object.is(n, -0) ? '0' : String(n)
  // Rounding through toFixed, then printing the shortest text of the rounded double: toFixed alone
  // would print binary noise (123456789.123 as "123456789.1229999959").
  const rounded = Number(n.toFixed(10))
  if (rounded === 0) return '0'
  const shortest = String(rounded)
  if (!shortest.includes('e')) return shortest
  // Below 1e-6 String uses an exponent; at that size 10 decimals carry few digits, none of them noise.
  return rounded.toFixed(10).replace(/0+$/, '')
}

/** Whether a submitted text (comma or dot) is the computed number, within float noise. */
export function sameNumber(submittedText: string, computedText: string): boolean {
  const submitted = parseNumber(submittedText)
  const computed = parseNumber(computedText)
  if (submitted === null || computed === null) return false
  return Math.abs(submitted - computed) <= 1e-9 * Math.max(1, Math.abs(computed))
}
