import { cssVarName, type EmbedOptions } from '../../../src/protocol/index.js'

/**
 * White label: the customer's cssVars override the custom properties every colour, radius
 * and spacing of the stylesheet is built from; their `css` comes last so it wins.
 */
export function applyTheme(options: EmbedOptions, doc: Document = document): void {
  const root = doc.documentElement
  for (const [key, value] of Object.entries(options.cssVars ?? {})) root.style.setProperty(cssVarName(key), value)
  root.classList.toggle('light', options.darkModeDisabled === true)
  if (options.css) {
    const style = doc.createElement('style')
    style.dataset.source = 'embed-options'
    style.textContent = options.css
    doc.head.append(style)
  }
}
