/**
 * A team's brand colour made readable (docs/branding.md): the colour's contrast with the text on
 * it and with the page under it, by WCAG 2.x relative luminance. The pages and the e-mails draw
 * primary buttons, links and focus rings in it, so where it is too light (or, on a dark page, too
 * dark) to reach AA against the page they use the nearest shade that does; the text on a button is
 * black or white, whichever reads better.
 */

/** `#rrggbb`, the only form stored (the console's picker gives it; `#rgb` is widened on input). */
export const HEX_COLOUR = /^#[0-9a-f]{6}$/

/** AA for text (buttons' labels, links): 4.5:1. */
export const AA_TEXT = 4.5

/** `#abc` or `#aabbcc`, any case, as `#aabbcc`; null for anything else. */
export function normalizeHex(input: string): string | null {
  const s = input.trim().toLowerCase()
  if (/^#[0-9a-f]{3}$/.test(s)) return `#${s[1]}${s[1]}${s[2]}${s[2]}${s[3]}${s[3]}`
  return HEX_COLOUR.test(s) ? s : null
}

const channels = (hex: string): [number, number, number] => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number]
const toHex = (rgb: number[]) => `#${rgb.map((c) => Math.round(Math.min(255, Math.max(0, c))).toString(16).padStart(2, '0')).join('')}`

export function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

/** The contrast ratio of two colours, 1 to 21. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}

/** The label colour for a button of `background`: black or white, whichever contrasts more. */
export const textOn = (background: string): '#000000' | '#ffffff' => (contrast(background, '#000000') >= contrast(background, '#ffffff') ? '#000000' : '#ffffff')

/**
 * `colour`, or the nearest shade of it (mixed towards black on a light page, white on a dark one)
 * that reaches `ratio` against `page`.
 */
export function readableOn(colour: string, page: string, ratio = AA_TEXT): string {
  if (contrast(colour, page) >= ratio) return colour
  const towards = luminance(page) > 0.18 ? [0, 0, 0] : [255, 255, 255]
  const from = channels(colour)
  for (let step = 1; step <= 100; step++) {
    const mixed = toHex(from.map((c, i) => c + ((towards[i]! - c) * step) / 100))
    if (contrast(mixed, page) >= ratio) return mixed
  }
  return toHex(towards)
}

/** What the pages and e-mails draw with a brand colour on a page of `page`, and the verdict the console shows. */
export interface BrandPalette {
  /** The colour used: the team's, or the nearest shade that reaches AA against the page. */
  primary: string
  /** The label on a primary button. */
  primaryForeground: string
  /** Whether the team's own colour was kept (false: a shade of it was used). */
  kept: boolean
  /** A pale tint of the colour (a button still waiting, a selected item) and the text on it. */
  accent: string
  accentForeground: string
  /** The contrast of the label on the button, and of the colour against the page. */
  buttonRatio: number
  pageRatio: number
}

/** `amount` (0..1) of `colour` over `page`. */
export function tint(colour: string, page: string, amount: number): string {
  const [c, p] = [channels(colour), channels(page)]
  return toHex(c.map((v, i) => p[i]! + (v - p[i]!) * amount))
}

export function brandPalette(colour: string, page = '#ffffff'): BrandPalette {
  const primary = readableOn(colour, page)
  const primaryForeground = textOn(primary)
  const accent = tint(colour, page, luminance(page) > 0.18 ? 0.1 : 0.22)
  return {
    primary,
    primaryForeground,
    kept: primary === colour,
    accent,
    accentForeground: readableOn(primary, accent),
    buttonRatio: contrast(primary, primaryForeground),
    pageRatio: contrast(primary, page),
  }
}
