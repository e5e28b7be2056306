/**
 * What is wrong with a screen as a person meets it: axe-core's serious and critical WCAG 2.2
 * A/AA violations, a page that scrolls sideways, controls the keyboard reaches but the eye cannot
 * follow, and errors the page logs. Used by the console's sweep over every screen.
 */
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { axeReport, axeViolations, type AxeRules } from './axe.js'
import { SCREENSHOTS } from './stack.js'

/** One screen to check: where it is, when it is ready, and the states it opens. */
export interface Visit {
  name: string
  /** The route pattern it covers (none for a screen outside the route tables). */
  pattern: string | null
  path: string
  ready: (page: Page) => Promise<unknown>
  states?: { name: string; open: (page: Page) => Promise<unknown>; allow?: RegExp }[]
  /** A console message this screen logs by design (a refused request's status line). */
  allow?: RegExp
}

/** How a sweep looks: at which widths, screenshots named with `tag`, with the keyboard walk or not, which axe rules. */
export interface Pass {
  tag: string
  sizes: readonly (readonly [number, number])[]
  keyboard: boolean
  rules?: AxeRules
}

export const BOTH_WIDTHS: Pass = {
  tag: '',
  sizes: [
    [1280, 900],
    [390, 844],
  ],
  keyboard: true,
}

/** The browser's line for a request the server refused on purpose (a wrong password, a spent link). */
export const REFUSED = /^Failed to load resource: the server responded with a status of 4\d\d/

/** What is wrong with the page as it is now, at each width of `pass`; a screenshot of each. */
async function inspect(page: Page, name: string, pass: Pass): Promise<string[]> {
  const found: string[] = []
  for (const [width, height] of pass.sizes) {
    const label = `${name}${pass.tag} at ${width}`
    await page.setViewportSize({ width, height })
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
    // A modal covers the viewport: the shot shows what a person sees then, not the page behind at full length.
    const modal = await page.evaluate(() => document.querySelector('dialog[open]') !== null)
    await page.screenshot({ path: join(SCREENSHOTS, `console-a11y-${name}${pass.tag}-${width}.png`), fullPage: !modal })
    const report = axeReport(label, await axeViolations(page, [], pass.rules))
    if (report) found.push(report)
    const wide = await page.evaluate(() => {
      const inner = innerWidth
      if (document.scrollingElement!.scrollWidth <= inner) return null
      // The deepest elements reaching past either edge: what to fix.
      const out = (el: Element) => {
        const r = el.getBoundingClientRect()
        return r.right > inner + 0.5 || r.left < -0.5
      }
      const past = [...document.querySelectorAll('body *')].filter((el) => out(el) && ![...el.children].some(out))
      return `${document.scrollingElement!.scrollWidth} > ${inner}: ${past.slice(0, 5).map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`).join(', ')}`
    })
    if (wide) found.push(`${label} scrolls sideways, ${wide}`)
    if (pass.keyboard && width < 640) found.push(...(await keyboardProblems(page, label)))
  }
  return found
}

/**
 * Tabs through the page from its start: each control the keyboard reaches is shown, inside the
 * page's width, and shows that it has the focus. Stops where the focus enters a frame (the
 * editor's own page is checked by its own tests) or comes round again.
 */
async function keyboardProblems(page: Page, label: string): Promise<string[]> {
  // A modal dialog keeps the focus where it put it (the page behind is inert): the walk starts there.
  const inDialog = await page.evaluate(() => {
    const start = document.createElement('span')
    start.id = 'a11y-start'
    start.tabIndex = -1
    document.body.prepend(start)
    start.focus()
    return document.activeElement !== start
  })
  const problems: string[] = []
  let reached = 0
  for (let i = 0; i < 200; i++) {
    if (i > 0 || !inDialog) await page.keyboard.press('Tab')
    // Opened with the mouse, the dialog's first focus shows no ring (as browsers do); from Tab on it must.
    const ringDue = i > 0 || !inDialog
    const at = await page.evaluate((ringDue) => {
      const el = document.activeElement as HTMLElement | null
      if (!el || el === document.body || el.id === 'a11y-start' || el.tagName === 'IFRAME' || el.dataset.a11yReached !== undefined) return null
      el.dataset.a11yReached = ''
      // Where the focus is, as a person sees it: the element in view, its ring painted.
      el.scrollIntoView({ block: 'nearest', inline: 'nearest' })
      const r = el.getBoundingClientRect()
      const style = getComputedStyle(el)
      const ring = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none'
      const path = (e: Element): string =>
        (e.parentElement && e.parentElement !== document.body ? `${path(e.parentElement)} > ` : '') + e.tagName.toLowerCase() + [...e.classList].map((c) => `.${c}`).join('')
      const what = `${path(el)} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}"`
      const wrong = [
        r.width < 1 || r.height < 1 || style.visibility === 'hidden' ? 'not shown' : '',
        r.left < -0.5 || r.right > innerWidth + 0.5 ? `outside the page (${Math.round(r.left)}..${Math.round(r.right)})` : '',
        ring || !ringDue ? '' : 'no focus ring',
      ].filter(Boolean)
      return { what, wrong }
    }, ringDue)
    if (!at) break
    reached++
    if (at.wrong.length) problems.push(`${label}, keyboard: ${at.what}: ${at.wrong.join(', ')}`)
  }
  await page.evaluate(() => {
    document.getElementById('a11y-start')?.remove()
    for (const el of document.querySelectorAll<HTMLElement>('[data-a11y-reached]')) delete el.dataset.a11yReached
  })
  if (reached === 0) problems.push(`${label}, keyboard: Tab reaches nothing`)
  return problems
}

/** Visits each screen of `visits` and each of its states in `context`, and says all that is wrong. */
export async function sweep(context: BrowserContext, origin: string, visits: Visit[], pass: Pass = BOTH_WIDTHS): Promise<string[]> {
  const found: string[] = []
  const page = await context.newPage()
  let allow: RegExp | undefined
  let at = ''
  page.on('pageerror', (e) => found.push(`${at}${pass.tag}: page error ${e.message}`))
  page.on('console', (m) => {
    if (m.type() === 'error' && !allow?.test(m.text())) found.push(`${at}${pass.tag}: console error ${m.text()}`)
  })
  page.on('dialog', (d) => void d.dismiss())
  const open = async (v: Visit) => {
    await page.setViewportSize({ width: pass.sizes[0]![0], height: pass.sizes[0]![1] })
    await page.goto(origin + v.path)
    await v.ready(page)
  }
  for (const v of visits) {
    at = v.name
    allow = v.allow
    await open(v)
    found.push(...(await inspect(page, v.name, pass)))
    for (const s of v.states ?? []) {
      // Each state from the screen as it loads, so one state's leftovers are not the next one's.
      at = s.name
      allow = s.allow ?? v.allow
      await open(v)
      await s.open(page)
      found.push(...(await inspect(page, s.name, pass)))
    }
  }
  await page.close()
  return found
}
