/**
 * Every language the service speaks is complete wherever it is offered: each dictionary of the
 * pages, the console, the verification page, the e-mails and the evidence documents has every key
 * English has and no other, none empty, with the same placeholders; words made by functions show
 * the same arguments as the English ones. A counted key (`x.one`, `x.other`) has, in each language,
 * every plural form that language's rules use (host/shared/i18n.ts): Polish `few` and `many`,
 * Hebrew `two`; a form the language does not use may stay.
 * Database: none (the dictionaries alone).
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { VERIFY_DICTIONARIES } from '../../host/app/src/verify/dictionaries.js'
import { MAIL_WORDS } from '../../host/server/mail/i18n.js'
import { EVIDENCE_WORDS } from '../../host/server/pdf/evidence-text.js'
import { pluralFormsOf, pluralKeys, type PluralForm } from '../../host/shared/i18n.js'
import { DOCUMENT_LANGUAGES, LANGUAGES, languageOf, type Language } from '../../host/shared/languages.js'
import { languageCodes, registries } from '../../scripts/language-registries.js'


const ROOT = path.resolve(import.meta.dirname, '../..')
const WORDS = path.join(ROOT, 'host/shared/words')
type Words = Record<string, unknown>

const placeholders = (text: string) => [...new Set(text.match(/\{\w+\}/g) ?? [])].sort().join(' ')

/** The plural forms a counted key needs and may have in `lang`, by the English key that stands for each. */
function pluralPlan(english: Words, lang: string) {
  const flat = Object.fromEntries(Object.entries(english).filter(([, v]) => typeof v === 'string')) as Record<string, string>
  const needed = pluralFormsOf(lang)
  const plan = new Map<string, { required: boolean; like: string }>()
  for (const [base, forms] of pluralKeys(flat)) {
    for (const form of new Set<PluralForm>([...forms, ...needed])) {
      plan.set(`${base}.${form}`, { required: needed.includes(form), like: forms.includes(form) ? `${base}.${form}` : `${base}.other` })
    }
  }
  return plan
}

/** What `words` says differently from `english`, one line per key, nested keys dotted; `lang` the language of `words`. */
function differences(english: Words, words: Words, lang = 'en', at = ''): string[] {
  const problems: string[] = []
  const plural = pluralPlan(english, lang)
  const checkText = (where: string, text: string, en: string) => {
    if (!text.trim()) problems.push(`${where}: empty`)
    else if (placeholders(text) !== placeholders(en)) problems.push(`${where}: placeholders "${placeholders(text)}", English "${placeholders(en)}"`)
  }
  for (const [key, { required, like }] of plural) {
    if (key in words) {
      if (typeof words[key] === 'string') checkText(at + key, words[key] as string, english[like] as string)
      else problems.push(`${at}${key}: a ${typeof words[key]} where English has a string`)
    } else if (required) problems.push(`${at}${key}: missing (a plural form ${lang} uses)`)
  }
  for (const [key, en] of Object.entries(english)) {
    if (plural.has(key)) continue
    const where = at + key
    const other = words[key]
    if (!(key in words)) problems.push(`${where}: missing`)
    else if (typeof other !== typeof en) problems.push(`${where}: a ${typeof other} where English has a ${typeof en}`)
    else if (typeof en === 'string') checkText(where, other as string, en)
    else if (typeof en === 'function') {
      const args = Array.from({ length: en.length }, (_, i) => `«argument ${i}»`)
      const made = (f: unknown) => (f as (...a: string[]) => unknown)(...args)
      const shown = (f: unknown) => args.filter((a) => String(made(f)).includes(a)).join(', ')
      const [enMade, otherMade] = [made(en), made(other)]
      if (enMade && typeof enMade === 'object') problems.push(...differences(enMade as Words, otherMade as Words, lang, `${where}(…).`))
      else if (!String(otherMade).trim()) problems.push(`${where}: empty`)
      else if (shown(other) !== shown(en)) problems.push(`${where}: shows "${shown(other)}", English "${shown(en)}"`)
    } else if (en && typeof en === 'object') problems.push(...differences(en as Words, other as Words, lang, `${where}.`))
  }
  for (const key of Object.keys(words)) if (!(key in english) && !plural.has(key)) problems.push(`${at}${key}: not in English`)
  return problems
}

/** Every dictionary, by where it is shown, in one language: the files of its folder, host/shared/words/<lang>/. */
async function dictionaries(code: Language): Promise<Record<string, Words>> {
  const load = async (set: string) => ((await import(/* @vite-ignore */ path.join(WORDS, code, `${set}.ts`))) as { default: Words }).default
  const consoleAreas = readdirSync(path.join(WORDS, 'en')).flatMap((f) => /^console-(.+)\.ts$/.exec(f)?.[1] ?? [])
  return {
    pages: await load('pages'),
    ...Object.fromEntries(await Promise.all(consoleAreas.map(async (area) => [`console ${area}`, await load(`console-${area}`)]))),
    verify: VERIFY_DICTIONARIES[code],
    mail: MAIL_WORDS[code],
    'certificate and audit log': EVIDENCE_WORDS[code],
  }
}

describe('the languages the service speaks', () => {
  it('(the comparison itself) finds missing, extra, empty and mismatched words', () => {
    const en = { a: 'Hello {name}', b: { c: 'Yes' }, d: (t: string, team: string) => `${team}: ${t}`, e: 'x' }
    const other = { a: 'Bonjour {nom}', b: { c: ' ' }, d: (t: string) => `«${t}»`, f: 'y' }
    expect(differences(en, other)).toEqual([
      'a: placeholders "{nom}", English "{name}"',
      'b.c: empty',
      'd: shows "«argument 0»", English "«argument 0», «argument 1»"',
      'e: missing',
      'f: not in English',
    ])
    // Counted keys: the forms the language uses, with the placeholders of English's own or its `other`.
    const counted = { 'n.one': '{count} page', 'n.other': '{count} pages', 'm.other': 'Other {code}', 'm.plain': 'Plain' }
    expect(differences(counted, { 'n.one': '{count} strona', 'n.few': '{count} strony', 'm.other': 'Inna {code}', 'm.plain': 'Zwykła' }, 'pl')).toEqual(['n.other: missing (a plural form pl uses)', 'n.many: missing (a plural form pl uses)'])
    expect(differences(counted, { 'n.other': '{count} ページ', 'n.two': '{count}', 'm.other': '{code}', 'm.plain': 'x' }, 'ja')).toEqual(['n.two: not in English'])
    expect(differences(counted, { 'n.one': 'עמוד', 'n.two': '{count} עמודים', 'n.other': '{count} עמודים', 'm.other': '{code}', 'm.plain': 'x' }, 'he')).toEqual(['n.one: placeholders "", English "{count}"'])
  })

  it('are listed once, with their own names, and offered first for a document', () => {
    const codes = DOCUMENT_LANGUAGES.map((l) => l.code)
    expect(new Set(codes).size).toBe(codes.length)
    expect(codes.slice(0, LANGUAGES.length)).toEqual(LANGUAGES.map((l) => l.code))
    for (const l of DOCUMENT_LANGUAGES) expect(l.name.trim(), l.code).not.toBe('')
    expect([languageOf('de-CH'), languageOf('FR_fr'), languageOf(' en '), languageOf('pt_br'), languageOf('xx'), languageOf(undefined), languageOf(42)]).toEqual(['de', 'fr', 'en', 'pt-BR', 'en', 'en', 'en'])
  })

  it('are declared in host/shared/languages.ts alone: no other file of the host lists them', () => {
    const files = readdirSync(path.join(ROOT, 'host'), { withFileTypes: true, recursive: true })
      .filter((f) => f.isFile() && /\.tsx?$/.test(f.name))
      .map((f) => path.relative(ROOT, path.join(f.parentPath, f.name)))
      .filter((f) => !/(^|\/)(dist|node_modules)\//.test(f) && f !== 'host/shared/languages.ts')
    const listing = /['"]en['"]\s*[,|]\s*['"]de['"]|['"]de['"]\s*[,|]\s*['"]fr['"]/
    expect(files.filter((f) => listing.test(readFileSync(path.join(ROOT, f), 'utf8')))).toEqual([])
  })

  it('are gathered from that one list: the server\'s registries are written from it, no other file imports each language\'s words', () => {
    expect(languageCodes()).toEqual(LANGUAGES.map((l) => l.code))
    // One folder of words per language, each with the files English's has.
    const folders = readdirSync(WORDS, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name)
    expect(folders.sort()).toEqual(LANGUAGES.map((l) => l.code).sort())
    const files = (code: string) => readdirSync(path.join(WORDS, code)).sort()
    for (const code of folders) expect(files(code), code).toEqual(files('en'))
    const written = registries()
    for (const { file, text } of written) expect(readFileSync(path.join(ROOT, file), 'utf8'), `${file}: run npx tsx scripts/language-registries.ts`).toBe(text)
    // The pages' word sets are gathered by their bundler (import.meta.glob), the server's by the written registries.
    const byHand = readdirSync(path.join(ROOT, 'host'), { withFileTypes: true, recursive: true })
      .filter((f) => f.isFile() && /\.tsx?$/.test(f.name))
      .map((f) => path.relative(ROOT, path.join(f.parentPath, f.name)))
      .filter((f) => !/(^|\/)(dist|node_modules)\//.test(f) && !written.some((w) => w.file === f))
      .filter((f) => /^import \w+ from '[./\w-]*\/(de|fr)(\/[\w-]+)?\.js'/m.test(readFileSync(path.join(ROOT, f), 'utf8')))
    expect(byHand).toEqual([])
  })

  it('leave no words in the pages\' own markup: every text a reader sees comes from a dictionary', () => {
    // JSX text between tags and the attributes people read; names and technical terms are the same in every language.
    const SAME_EVERYWHERE = new Set(['Envelope', 'SHA-256', 'https://', 'https://app.example.com'])
    const text = /(?<![=-])>([^<>{}()=;]*\p{L}{2,}[^<>{}()=;]*)</gu
    const attribute = /\b(?:aria-label|title|placeholder|alt|label)="([^"]*\p{L}{2,}[^"]*)"/gu
    const found = readdirSync(path.join(ROOT, 'host/app/src'), { withFileTypes: true, recursive: true })
      .filter((f) => f.isFile() && f.name.endsWith('.tsx'))
      .flatMap((f) => {
        const source = readFileSync(path.join(f.parentPath, f.name), 'utf8')
        const words = [...source.matchAll(text), ...source.matchAll(attribute)].map((m) => m[1]!.trim())
        return words.filter((w) => !SAME_EVERYWHERE.has(w) && !/\b(return|case)\b/.test(w)).map((w) => `${f.name}: ${w}`)
      })
    expect(found).toEqual([])
  })

  it.each(LANGUAGES.filter((l) => l.code !== 'en').map((l) => [l.code] as [Language]))('%s: every dictionary has every key, filled, with the same placeholders', async (code) => {
    const english = await dictionaries('en')
    const words = await dictionaries(code)
    expect(Object.keys(words)).toEqual(Object.keys(english))
    const problems = Object.entries(english).flatMap(([where, en]) => differences(en, words[where]!, code).map((p) => `${where}: ${p}`))
    expect(problems.join('\n')).toBe('')
  })
})
