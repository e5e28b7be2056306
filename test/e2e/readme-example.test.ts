/**
 * The README's code is the example app's (examples/app, built and driven by example-app.test.ts):
 * a code block whose first line names a file of examples/ (`// examples/app/server.mjs`, or
 * `/* examples/app/src/app.css *\/`) must be that file's text, word for word. A line `// ...`
 * (or `/* ... *\/`) in the block stands for what it leaves out: the parts between such lines must
 * appear in the file in that order.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const repo = fileURLToPath(new URL('../../', import.meta.url))
const readme = readFileSync(join(repo, 'README.md'), 'utf8')

const NAMES_FILE = /^(?:\/\/|\/\*) (examples\/[\w./-]+?)(?::| \*\/|$)/
const ELLIPSIS = /^\s*(?:\/\/|\/\*) \.\.\./

/** The README's code blocks that name an example file in their first line. */
function quoted(markdown: string): { file: string; lines: string[] }[] {
  const blocks = [...markdown.matchAll(/^```\w*\n([\s\S]*?)^```$/gm)].map((m) => m[1]!.replace(/\n$/, '').split('\n'))
  return blocks.flatMap((lines) => {
    const file = NAMES_FILE.exec(lines[0]!)?.[1]
    return file ? [{ file, lines }] : []
  })
}

/** The parts of a block between its `// ...` lines, each without its blank first and last lines. */
function parts(lines: string[]): string[] {
  const out: string[][] = [[]]
  for (const line of lines) {
    if (ELLIPSIS.test(line)) out.push([])
    else out.at(-1)!.push(line)
  }
  return out.map((p) => p.join('\n').replace(/^\n+|\n+$/g, '')).filter(Boolean)
}

/** The first part of the block that is not in the file (in order), or null when all are. */
function firstMissing(file: string, block: string[]): string | null {
  const text = readFileSync(join(repo, file), 'utf8')
  // The naming line is the file's own first line, or the block's label for an excerpt.
  const body = text.startsWith(block[0]! + '\n') ? block : block.slice(1)
  let from = 0
  for (const part of parts(body)) {
    const at = text.indexOf(part, from)
    if (at < 0) return part
    from = at + part.length
  }
  return null
}

describe("README's code and examples/app", () => {
  const blocks = quoted(readme)

  test("the README quotes the backend's presign route, the page's call to it and the component", () => {
    expect(blocks.map((b) => b.file)).toEqual(
      expect.arrayContaining(['examples/app/server.mjs', 'examples/app/src/backend.ts', 'examples/app/src/NewContract.tsx']),
    )
  })

  test.each(blocks.map((b, n) => [`${b.file} (block ${n + 1})`, b] as const))('%s is the file word for word', (_, { file, lines }) => {
    expect(existsSync(join(repo, file)), file).toBe(true)
    expect(firstMissing(file, lines)).toBeNull()
  })

  test('a change on either side is caught', () => {
    const [server] = blocks.filter((b) => b.file === 'examples/app/server.mjs')
    const changed = server!.lines.map((l) => l.replace('expiresIn: 60', 'expiresIn: 30'))
    expect(firstMissing(server!.file, changed)).toContain('expiresIn: 30')
    // Parts out of order are not the file either, though each is in it.
    const [label, ...body] = server!.lines
    const half = Math.floor(body.length / 2)
    const inOrder = [label!, ...body.slice(0, half), '// ...', ...body.slice(half)]
    expect(firstMissing(server!.file, inOrder)).toBeNull()
    expect(firstMissing(server!.file, [label!, ...body.slice(half), '// ...', ...body.slice(0, half)])).not.toBeNull()
  })
})
