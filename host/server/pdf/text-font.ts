/**
 * The text font of sealed PDFs: DejaVu Sans for Latin, Greek, Cyrillic and Hebrew, and Noto Sans
 * JP, KR or SC for the characters DejaVu lacks (kana, Hangul, Han ideographs, full-width
 * punctuation), chosen character by character so a line such as "山田 Ada" mixes both. A CJK font
 * is embedded only in a document whose text needs it, and only the glyphs it draws (a few KiB).
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import fontkit, { type Font } from '@cantoo/fontkit'
import type { Color, PDFDocument, PDFFont, PDFPage } from '@cantoo/pdf-lib'

/** What wrapping and fitting need of a font: PDFFont and TextFont both answer it. */
export interface TextMeasure {
  widthOfTextAtSize(text: string, size: number): number
}

type FallbackName = 'jp' | 'kr' | 'sc'

const FILES: Record<'dejavu' | FallbackName, string> = {
  dejavu: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  jp: '@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf',
  kr: '@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf',
  sc: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
}

/** Each font's bytes, read once per thread the first time a document needs it. */
const bytes = new Map<keyof typeof FILES, Uint8Array>()
const fontBytes = (name: keyof typeof FILES) => {
  let b = bytes.get(name)
  if (!b) bytes.set(name, (b = new Uint8Array(readFileSync(createRequire(import.meta.url).resolve(FILES[name])))))
  return b
}

/**
 * Which characters each font has, from its cmap alone. Kept per thread: only the character map is
 * read, never glyph layouts, which must not be shared between documents (see embedTextFont).
 */
const coverage = new Map<keyof typeof FILES, { hasGlyphForCodePoint(cp: number): boolean }>()
function covers(name: keyof typeof FILES, cp: number): boolean {
  let font = coverage.get(name)
  if (!font) coverage.set(name, (font = fontkit.create(fontBytes(name)) as Font))
  return font.hasGlyphForCodePoint(cp)
}

/** Characters DejaVu may lack and a CJK font has: Hangul jamo and syllables, CJK radicals to ideographs, compatibility and full-width forms, supplementary ideographs. */
const MAYBE_CJK = /[\u1100-\u11ff\u2e80-\u9fff\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]|[\ud840-\ud8bf][\udc00-\udfff]/
const HANGUL = /[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7af]/
const KANA = /[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]/

/**
 * The order the CJK fonts are tried in: the document's language's own first (Japanese kanji drawn
 * in Japanese forms, Chinese in Simplified ones); in any other language, by the script the text shows.
 */
function fallbackOrder(language: string, text: string): FallbackName[] {
  const first = ownFont(language) ?? (HANGUL.test(text) ? 'kr' : KANA.test(text) ? 'jp' : 'sc')
  return [first, ...(['jp', 'sc', 'kr'] as const).filter((n) => n !== first)]
}

/** The CJK font of a document's language by its primary subtag (zh-TW too: SC covers the traditional characters as well). */
function ownFont(language: string): FallbackName | undefined {
  return ({ ja: 'jp', ko: 'kr', zh: 'sc' } as Record<string, FallbackName>)[language.trim().toLowerCase().split(/[-_]/)[0]!]
}

/** Every string in `value` (objects and arrays walked, bytes and pictures skipped), joined. */
export function textOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') {
    if (!value.startsWith('data:')) out.push(value)
  } else if (Array.isArray(value)) {
    for (const v of value) textOf(v, out)
  } else if (value && typeof value === 'object' && !ArrayBuffer.isView(value)) {
    for (const v of Object.values(value)) textOf(v, out)
  }
  return out
}

export class TextFont implements TextMeasure {
  constructor(
    readonly base: PDFFont,
    /** The CJK fonts this document embeds, in the order they are tried. */
    private readonly fallbacks: { name: FallbackName; font: PDFFont }[],
  ) {}

  /** `text` cut where the font changes: DejaVu wherever it has the character, else the first CJK font that does. */
  runs(text: string): { font: PDFFont; text: string }[] {
    if (!this.fallbacks.length || !MAYBE_CJK.test(text)) return [{ font: this.base, text }]
    const runs: { font: PDFFont; text: string }[] = []
    for (const ch of text) {
      const cp = ch.codePointAt(0)!
      const last = runs[runs.length - 1]
      // A space stays with the run it is in: fewer, longer runs.
      let font = last && /\s/.test(ch) ? last.font : this.base
      if (!/\s/.test(ch) && !covers('dejavu', cp)) font = this.fallbacks.find((f) => covers(f.name, cp))?.font ?? this.base
      if (last && last.font === font) last.text += ch
      else runs.push({ font, text: ch })
    }
    return runs
  }

  widthOfTextAtSize(text: string, size: number): number {
    let width = 0
    for (const run of this.runs(text)) width += run.font.widthOfTextAtSize(run.text, size)
    return width
  }

  /** Line height: DejaVu's, whose ascent and descent hold the CJK glyphs too, so mixed lines keep one rhythm. */
  heightAtSize(size: number, options?: { descender?: boolean }): number {
    return this.base.heightAtSize(size, options)
  }

  /** Draws `text` from `x`, each run in its font; returns the width drawn. */
  draw(page: PDFPage, text: string, o: { x: number; y: number; size: number; color: Color }): number {
    let x = o.x
    for (const run of this.runs(text)) {
      page.drawText(run.text, { ...o, x, font: run.font })
      x += run.font.widthOfTextAtSize(run.text, o.size)
    }
    return x - o.x
  }
}

/**
 * The text font for `doc`, with the CJK fonts that `texts` (everything the document will draw)
 * need, the document's language's first. Each is parsed anew for each document: a fontkit font
 * shared between documents caches the components of accented glyphs without their characters, and
 * later documents then lose text (Ö's O became U+0001).
 */
export async function embedTextFont(doc: PDFDocument, language = 'en', texts: unknown = []): Promise<TextFont> {
  doc.registerFontkit(fontkit)
  const base = await doc.embedFont(fontBytes('dejavu'), { subset: true })
  const wanted = new Set<FallbackName>()
  const own = ownFont(language)
  if (own) wanted.add(own)
  const all = textOf(texts).filter((t) => MAYBE_CJK.test(t))
  if (all.length) {
    const order = fallbackOrder(language, all.join(' '))
    for (const t of all) {
      for (const ch of t) {
        const cp = ch.codePointAt(0)!
        if (cp < 0x1100 || /\s/.test(ch) || covers('dejavu', cp)) continue
        const name = order.find((n) => covers(n, cp))
        if (name) wanted.add(name)
      }
    }
  }
  const order = fallbackOrder(language, all.join(' ')).filter((n) => wanted.has(n))
  const fallbacks = await Promise.all(order.map(async (name) => ({ name, font: await doc.embedFont(fontBytes(name), { subset: true }) })))
  return new TextFont(base, fallbacks)
}
