import { describe, expect, it } from 'vitest'
import { commands } from 'vitest/browser'

describe('server rendering (Node, no window)', () => {
  it('renders every component to an iframe with its title and size, without src or token, quietly', async () => {
    const { window, html, warnings, errors } = await commands.renderOnServer()
    expect(window).toBe('undefined')
    const frames = html.match(/<iframe[^>]*>/g)!
    expect(frames.map((f) => /title="([^"]+)"/.exec(f)?.[1])).toEqual([
      'Create template', 'Edit envelope', 'Create document', 'Create template', 'Edit the NDA', 'Edit template', 'Create document',
      'Sign document', 'Sign document', 'Sign document',
    ])
    for (const f of frames) {
      expect(f).toContain('width="100%"')
      expect(f).toContain('height="800"')
      expect(f).not.toContain('src=')
    }
    expect(frames[5]).toContain('class="embed"')
    expect(html).not.toContain('secret')
    // Deprecation warnings and option errors are for browsers; servers stay quiet.
    expect(warnings).toEqual([])
    expect(errors).toEqual([])
  }, 60_000)
})

describe('the package build', () => {
  it('keeps "use client" first in the browser entry, emits ESM and CJS declarations, React external, no zod, within budget', async () => {
    const { files, gzip, budget } = await commands.buildLibrary()
    expect(files['index.js']!.split('\n')[0]).toBe('"use client";')
    expect(files['index.cjs']!.split('\n')[0]).toBe('"use client";')
    expect(files['index.js']).toMatch(/from "react"/)
    expect(files['index.js']).toMatch(/from "react\/jsx-runtime"/)
    expect(files['index.cjs']).toMatch(/require\("react\/jsx-runtime"\)/)
    expect(files['index.js']).not.toMatch(/zod|jsxDEV|react\.development/)
    expect(files['index.d.ts']).toContain("from './react/v2.js'")
    expect(files['index.d.cts']).toContain("from './react/v2.cjs'")
    expect(files['index.d.cts']).not.toMatch(/from '\.[^']*\.js'/)
    expect(files['react/types.d.cts']).toContain('presignToken: string')
    expect(gzip).toBeLessThanOrEqual(budget)
    // The testing helpers are their own entry: nothing of them, nor a chunk shared with them, in the browser one.
    expect(files['testing/index.js']).toContain('function embedFrame')
    expect(files['testing/index.d.ts']).toContain('embedFrame')
    expect(files['index.js']).not.toMatch(/embedFrame|from "\.\//)
  }, 120_000) // a full build with declarations, on a busy machine
})
