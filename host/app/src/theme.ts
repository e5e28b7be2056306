import { cssVarName, type EmbedOptions } from '../../../src/protocol/index.js'
import { safeCss, safeCssValue } from '../../../src/protocol/css.js'

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
