/**
 * axe-core run inside a page or a frame, against WCAG 2.2 A and AA (target-size, 24 x 24 px, is
 * in wcag22aa). axe is evaluated through the DevTools protocol, not added as a <script>, so the
 * pages' Content-Security-Policy stays as strict as in production and the CSP watch of stack.ts
 * stays on.
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { Frame, FrameLocator, Page } from 'playwright-core'

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

let source: Promise<string> | undefined
const axeSource = () => (source ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'))

type Target = Page | Frame | FrameLocator

/**
 * Which of the WCAG rules run: all by default; `only` these (a sweep that checks one property,
 * such as contrast in the dark theme), or all but `skip` (a property another sweep already checks
 * on the same screens).
 */
export interface AxeRules {
  only?: readonly string[]
  skip?: readonly string[]
}

/**
 * Pages that run axe's source at the start of each new document of theirs: the 638 KB script then
 * crosses the DevTools protocol once per page instead of once per document checked (a sweep
 * checks some thirty documents a page). Every frame of such a page loads it; axe only answers its
 * own messages, so the pages' own postMessage traffic is untouched.
 */
const armed = new WeakSet<Page>()

/** Makes `axe` defined in `frame`'s document, and in the documents its page loads next. */
async function loadAxe(frame: Page | Frame): Promise<void> {
  const page = 'mainFrame' in frame ? frame : frame.page()
  if (!armed.has(page)) {
    armed.add(page)
    await page.addInitScript(await axeSource())
  }
  // A document loaded before its page was armed.
  if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(await axeSource())
}

async function frameOf(target: Target): Promise<Page | Frame> {
  if ('evaluate' in target) return target
  const frame = await (await target.owner().elementHandle())?.contentFrame()
  if (!frame) throw new Error('axe: the frame has no document')
  return frame
}

/**
 * The serious and critical violations axe finds in `target`'s document, one readable line per
 * element ("rule (impact) selector: what to fix"); [] when there are none. `exclude`: selectors
 * of nodes to leave out, each a known false positive the caller explains.
 */
export async function axeViolations(target: Target, exclude: string[] = [], rules: AxeRules = {}): Promise<string[]> {
  const frame = await frameOf(target)
  await loadAxe(frame)
  // Colours are read as painted: a button caught in its 0.12 s change of colour (a node React
  // reused, now primary) is no state a person looks at. Transitions end first; animations (a
  // spinner) never do and are left running.
  await frame.evaluate(() => Promise.all(document.getAnimations().filter((a) => a instanceof CSSTransition).map((a) => a.finished.catch(() => null))))
  const violations = await frame.evaluate(
    async ({ tags, exclude, only, skip }) => {
      const axe = (window as any).axe
      const runOnly = only ? { type: 'rule', values: only } : { type: 'tag', values: tags }
      const off = Object.fromEntries(skip.map((id: string) => [id, { enabled: false }]))
      // Other frames (a PDF viewer, an embed) are checked on their own: axe stays in this one.
      const result = await axe.run({ exclude: exclude.map((s: string) => [s]) }, { runOnly, rules: off, iframes: false, resultTypes: ['violations'] })
      return result.violations.map((v: any) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n: any) => ({ target: n.target.join(' '), impact: n.impact, summary: n.failureSummary })),
      }))
    },
    { tags: TAGS, exclude, only: rules.only ? [...rules.only] : undefined, skip: [...(rules.skip ?? [])] },
  )
  return violations.flatMap((v: any) =>
    v.nodes
      .filter((n: any) => n.impact === 'serious' || n.impact === 'critical')
      .map((n: any) => `${v.id} (${n.impact}) ${n.target}: ${v.help}. ${String(n.summary).replace(/\s+/g, ' ')}`),
  )
}

/** A label for a report of `axeViolations`: the state checked, then each violation on its own line. */
export const axeReport = (state: string, found: string[]) => (found.length ? `${state}:\n  ${found.join('\n  ')}` : '')
