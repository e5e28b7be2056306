// Writes the server's language registries from the one list of languages, LANGUAGES in
// host/shared/languages.ts: each word set of the server gets a file importing that set's file in
// every language's folder, host/shared/words/<lang>/ (docs/development.md, "Words and languages").
// The pages need none: their bundler gathers the files. Run after adding a language:
// `npx tsx scripts/language-registries.ts`; test/host/dictionaries.test.ts fails while a registry
// differs from what this writes.
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/**
 * The word sets of the server: the registry written, the file of the set in each language's folder
 * (host/shared/words/<lang>/<set>.ts) and the type of a dictionary, which English's file exports.
 */
const WORD_SETS = [
  { file: 'host/server/mail/words.ts', set: 'mail', type: 'MailWords', what: "the e-mails' words" },
  { file: 'host/server/pdf/evidence-words.ts', set: 'evidence', type: 'EvidenceWords', what: "the evidence documents' words" },
]

/** The language codes of LANGUAGES, in their order. */
export function languageCodes(root = ROOT): string[] {
  const source = readFileSync(path.join(root, 'host/shared/languages.ts'), 'utf8')
  const list = /export const LANGUAGES = \[([\s\S]*?)\] as const/.exec(source)
  if (!list) throw new Error('LANGUAGES not found in host/shared/languages.ts')
  return [...list[1]!.matchAll(/code: '([^']+)'/g)].map((m) => m[1]!)
}

const identifier = (code: string) => code.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())
const key = (code: string) => (/^[a-z]+$/.test(code) ? code : `'${code}'`)

/** Each registry's path and the text it should have. */
export function registries(root = ROOT): { file: string; text: string }[] {
  const codes = languageCodes(root)
  return WORD_SETS.map(({ file, set, type, what }) => {
    const shared = path.posix.relative(path.posix.dirname(file), 'host/shared')
    const text = [
      `// ${what[0]!.toUpperCase()}${what.slice(1)} by language. Written by scripts/language-registries.ts from LANGUAGES`,
      '// (host/shared/languages.ts): do not edit, run it.',
      `import type { Language } from '${shared}/languages.js'`,
      ...codes.map((code) => (code === 'en' ? `import en, { type ${type} } from '${shared}/words/en/${set}.js'` : `import ${identifier(code)} from '${shared}/words/${code}/${set}.js'`)),
      '',
      `export const WORDS: Record<Language, ${type}> = { ${codes.map((code) => (identifier(code) === code ? code : `${key(code)}: ${identifier(code)}`)).join(', ')} }`,
      '',
    ].join('\n')
    return { file, text }
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const { file, text } of registries()) writeFileSync(path.join(ROOT, file), text)
}
