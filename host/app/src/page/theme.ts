import { cssVarName, type EmbedOptions } from '../../../../src/protocol/index.js'
import { safeCss, safeCssValue } from '../../../../src/protocol/css.js'
import { brandPalette, HEX_COLOUR } from '../../../shared/brand-colour.js'

/**
 * White label: the customer's cssVars override the custom properties every colour, radius
 * and spacing of the stylesheet is built from; their `css` comes last so it wins. Neither may
 * load anything (src/protocol/css.ts); the <style> carries the nonce the page's
 * Content-Security-Policy allows (the host puts it on `meta[property=csp-nonce]`).
 */
export function applyTheme(options: EmbedOptions, doc: Document = document): void {
  const root = doc.documentElement
  for (const [key, value] of Object.entries(options.cssVars ?? {})) {
    const safe = safeCssValue(String(value))
    if (safe !== null) root.style.setProperty(cssVarName(key), safe)
  }
  root.classList.toggle('light', options.darkModeDisabled === true)
  if (options.css) {
    const style = doc.createElement('style')
    style.dataset.source = 'embed-options'
    style.nonce = doc.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce ?? ''
    style.textContent = safeCss(options.css)
    doc.head.append(style)
  }
}

/** The page behind the primary colour in each scheme (page/base.css's --background). */
const LIGHT_PAGE = '#ffffff'
const DARK_PAGE = '#0c111b'
/** The theme variables a team's brand colour sets: an embed that sets any of them keeps its own. */
const BRAND_VARS = ['primary', 'primaryForeground', 'ring', 'accent', 'accentForeground']

/**
 * The sending team's brand colour (docs/branding.md) on primary buttons, links, focus rings and
 * accents: the nearest shade that reads against the page in each scheme, with a black or white
 * label, and a pale tint of it with text that reads on it.
 * It goes before the embed's own `css` (which wins by coming later), and not at all when the
 * embed's cssVars set the primary colours themselves.
 */
export function applyBrand(color: string | null | undefined, options: EmbedOptions, doc: Document = document): void {
  doc.querySelector('style[data-source="team-brand"]')?.remove()
  if (!color || !HEX_COLOUR.test(color)) return
  if (Object.keys(options.cssVars ?? {}).some((k) => BRAND_VARS.includes(k))) return
  const vars = (page: string) => {
    const p = brandPalette(color, page)
    return `--primary:${p.primary};--primary-foreground:${p.primaryForeground};--ring:${p.primary};--accent:${p.accent};--accent-foreground:${p.accentForeground};`
  }
  const style = doc.createElement('style')
  style.dataset.source = 'team-brand'
  style.nonce = doc.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce ?? ''
  style.textContent = `:root{${vars(LIGHT_PAGE)}}@media (prefers-color-scheme: dark){:root:not(.light){${vars(DARK_PAGE)}}}`
  const embedCss = doc.querySelector('style[data-source="embed-options"]')
  if (embedCss) embedCss.before(style)
  else doc.head.append(style)
}
