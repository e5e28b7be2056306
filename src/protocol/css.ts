/**
 * The customer's `css` and `cssVars` style the embedded pages, which show what a visitor types.
 * Anything in them that makes the browser fetch something would let CSS read the page (an
 * attribute selector per keystroke, each with its own background URL), so every rule or
 * declaration that could load a resource is dropped, whatever its target: url(), image-set(),
 * image(), cross-fade(), element(), src(), @import, @namespace. The host's Content-Security-Policy
 * refuses such loads as well; this keeps the stylesheet from even asking.
 *
 * Decided on the text as the browser reads it: comments removed (so `u/**\/rl(` joins up and is
 * caught), CSS escapes decoded (`u\72l(`, `\75 rl(`), case ignored. What is kept is kept as written.
 */

/** Functions and at-rules that load a resource (or may in a future CSS level). */
const LOADS = /(?:^|[^\w-])(?:-[a-z]+-)?(?:url|image-set|image|cross-fade|element|src|paint)\s*\(|@(?:import|namespace)\b/i

/** CSS escapes as the tokenizer decodes them: hex (1 to 6 digits, one optional white space) or a literal character. */
const decode = (text: string) =>
  text.replace(/\\([0-9a-f]{1,6})[ \t\n\r\f]?|\\([\s\S])/gi, (_, hex: string | undefined, ch: string | undefined) =>
    hex ? String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff) || 0xfffd) : ch!,
  )

const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, '')

/** True when `text` (a declaration, a value, a prelude) could make the browser fetch something. */
export function cssLoadsResource(text: string): boolean {
  // Decoding twice: an escaped backslash must not hide an escape behind it.
  const once = decode(withoutComments(text))
  return LOADS.test(once) || LOADS.test(withoutComments(decode(once)))
}

/**
 * The customer's stylesheet without anything that loads a resource: split at `;`, `{` and `}`
 * (escaped or quoted ones too, which can only cut more), every piece that loads is dropped, its
 * delimiter kept so the blocks stay balanced.
 */
export function safeCss(css: string): string {
  const pieces = withoutComments(css).split(/([;{}])/)
  let out = ''
  for (let i = 0; i < pieces.length; i += 2) {
    const piece = pieces[i]!
    out += (cssLoadsResource(piece) ? '' : piece) + (pieces[i + 1] ?? '')
  }
  return out
}

/** A cssVars value, or null when it could load a resource (it may end up in `background`). */
export const safeCssValue = (value: string): string | null => (cssLoadsResource(value) || /[;{}]/.test(value) ? null : value)
