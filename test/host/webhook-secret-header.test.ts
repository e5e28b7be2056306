/**
 * One name for the header that carries a webhook's secret: the one the host sends. The receiver's
 * helpers check that header, and every place that tells people about it names it.
 * Database: none (no host).
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { SECRET_HEADER } from '../../host/server/webhooks/deliver.js'
import teamDe from '../../host/shared/words/de/console-team.js'
import teamEn from '../../host/shared/words/en/console-team.js'
import teamFr from '../../host/shared/words/fr/console-team.js'
import { WEBHOOK_SECRET_HEADER } from '../../src/server/webhooks/verify.js'

const ROOT = path.resolve(import.meta.dirname, '../..')
const teamWords = { en: teamEn, de: teamDe, fr: teamFr }
/** Any spelling of a secret header but the admin endpoints' own (x-admin-secret, another header). */
const SECRET_HEADER_NAMES = /\bx-(?!admin-)[a-z-]*secret\b|documenso-secret/gi

const files = (dir: string, ext: RegExp): string[] =>
  readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    // An example's installed dependencies (examples/app/node_modules) are not ours.
    .filter((f) => f.isFile() && ext.test(f.name) && !f.parentPath.split(path.sep).includes('node_modules'))
    .map((f) => path.relative(ROOT, path.join(f.parentPath, f.name)))

describe('the webhook secret header', () => {
  it('is the one the host sends wherever the receiver checks it', () => {
    expect(SECRET_HEADER).toBe('X-Service-Secret')
    expect(WEBHOOK_SECRET_HEADER).toBe(SECRET_HEADER.toLowerCase())
  })

  it.each(['en', 'de', 'fr'] as const)('is what the console tells a team in %s', (language) => {
    const words = teamWords[language] as Record<string, string>
    expect(words['team.webhooks.secretHint']).toContain(SECRET_HEADER)
    for (const [key, text] of Object.entries(words)) {
      for (const name of text.match(SECRET_HEADER_NAMES) ?? []) expect(name, key).toBe(SECRET_HEADER)
    }
  })

  it('is the only name the documentation, stories, server helpers and console give it', () => {
    const places = [
      'README.md',
      'host/README.md',
      ...files('docs', /\.md$/),
      ...files('stories', /\.(mdx|tsx?)$/),
      ...files('examples', /\.tsx?$/),
      ...files('src/server', /\.ts$/),
      ...files('src/protocol', /\.ts$/),
      ...files('host/app/src/console', /\.tsx?$/),
    ]
    const named = places.flatMap((file) =>
      [...readFileSync(path.join(ROOT, file), 'utf8').matchAll(SECRET_HEADER_NAMES)].map((m) => ({ file, name: m[0] })),
    )
    expect(named.filter((n) => n.name.toLowerCase() !== SECRET_HEADER.toLowerCase())).toEqual([])
    // Prose names it as sent; code may compare it lower-cased (header names are case-insensitive).
    const prose = named.filter((n) => /\.mdx?$/.test(n.file))
    expect(prose.length).toBeGreaterThan(0)
    for (const n of prose) expect(n.name, n.file).toBe(SECRET_HEADER)
  })
})
