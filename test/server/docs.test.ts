// The docs name what the package exports: the README's component table and count, and the
// Storybook introduction, against the browser entry's actual exports.
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import * as entry from '../../src/index.js'

const root = new URL('../../', import.meta.url)
const read = (path: string) => readFile(new URL(path, root), 'utf8')
// Every Embed… export but the provider and the error class (EmbedCommandError) is a component.
const components = Object.keys(entry).filter((name) => /^Embed/.test(name) && name !== 'EmbedProvider' && !/Error$/.test(name)).sort()
const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve']

describe('the docs list the components the package exports', () => {
  it('README: the table has one row per component, and the count in words matches', async () => {
    const readme = await read('README.md')
    const rows = [...readme.matchAll(/^\| `(Embed\w+)`/gm)].map((m) => m[1]).sort()
    expect(rows).toEqual(components)
    const counted = /\b(\w+) React components\b/.exec(readme)?.[1]
    expect(counted).toBe(WORDS[components.length])
    expect(readme.split('\n').length).toBeLessThan(200)
  })

  it('the Storybook introduction names every component', async () => {
    const intro = await read('stories/Introduction.mdx')
    for (const name of components) expect(intro, name).toContain(`\`${name}\``)
  })

  it('every docs page the README links to exists', async () => {
    const readme = await read('README.md')
    for (const [, path] of readme.matchAll(/\]\(((?:docs|host|examples)\/[^)#]+)/g)) await expect(read(path!), path).resolves.toBeTypeOf('string')
  })
})
