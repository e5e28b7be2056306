/**
 * The one way the service puts its words together, for the server (e-mails, certificate, audit log)
 * and the pages (authoring, signing, console, verification) alike (docs/development.md, "Languages").
 *
 * - A dictionary is flat: a key (`sign.remaining`) to a text. English has every key; a language's
 *   dictionary has the same ones, and a key missing from it reads in English.
 * - A text names its placeholders: `{name}`, filled from the parameters by name; one the
 *   parameters lack stays as written.
 * - A count picks a plural form: the key's forms are sibling keys named by the CLDR categories
 *   (`x.one`, `x.few`, `x.many`, `x.other`, ...), and `Intl.PluralRules` of the language picks the one
 *   for `params.count`; `x.other` stands in for a form a dictionary lacks.
 */
import type { Language } from './languages.js'

export type Dictionary = Readonly<Record<string, string>>
export type Params = Readonly<Record<string, string | number>>

/** The CLDR plural categories, in their usual order: the names a plural form's key ends with. */
export const PLURAL_FORMS = ['zero', 'one', 'two', 'few', 'many', 'other'] as const
export type PluralForm = (typeof PLURAL_FORMS)[number]

const rules = new Map<string, Intl.PluralRules>()
/** The plural form a language uses for a count (`pl`, 3: `few`). */
export function pluralForm(lang: string, count: number): PluralForm {
  let r = rules.get(lang)
  if (!r) rules.set(lang, (r = new Intl.PluralRules(lang)))
  return r.select(count)
}

/**
 * The forms a language's dictionary must give a counted key: those its plural rules pick for the
 * counts 0 to 1,000 (the forms only millions take, such as French `many`, read as `other`).
 */
export function pluralFormsOf(lang: string): PluralForm[] {
  const used = new Set<PluralForm>(['other'])
  for (let n = 0; n <= 1000; n++) used.add(pluralForm(lang, n))
  return PLURAL_FORMS.filter((f) => used.has(f))
}

/** The text with its `{name}` placeholders filled from `params`. */
export function fill(text: string, params?: Params): string {
  return params ? text.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m)) : text
}

/** The text of `key` in one dictionary, its plural form picked by `params.count`; undefined when it has none. */
function pick(dict: Dictionary | undefined, key: string, params: Params | undefined, lang: string): string | undefined {
  if (!dict) return undefined
  const count = params?.count
  if (typeof count === 'number' && !(key in dict)) return dict[`${key}.${pluralForm(lang, count)}`] ?? dict[`${key}.other`]
  return dict[key]
}

/**
 * The words of `key` in `lang`, from `dict` (that language's dictionary), else from `english`,
 * else the key itself; placeholders filled from `params`, whose `count` picks the plural form.
 */
export function format(dict: Dictionary | undefined, key: string, params?: Params, lang: string = 'en', english?: Dictionary): string {
  const own = pick(dict, key, params, lang)
  if (own !== undefined) return fill(own, params)
  const fallback = pick(english, key, params, 'en')
  return fill(fallback ?? key, params)
}

/** A word set: the dictionaries of one part of the service, English always there, the others when loaded. */
export type WordSet<D extends Dictionary = Dictionary> = { en: D } & Partial<Record<Language, D>>

/** `format` over a word set: the language's dictionary, with English for what it lacks. */
export const translate = (words: WordSet, lang: Language, key: string, params?: Params): string => format(words[lang], key, params, lang, words.en)

/** The keys of a dictionary that are plural forms, by base key (`x.one`, `x.other`: `x` -> [one, other]). */
export function pluralKeys(dict: Dictionary): Map<string, PluralForm[]> {
  const bases = new Map<string, PluralForm[]>()
  for (const key of Object.keys(dict)) {
    const m = /^(.+)\.(zero|one|two|few|many|other)$/.exec(key)
    if (m) bases.set(m[1]!, [...(bases.get(m[1]!) ?? []), m[2] as PluralForm])
  }
  // A base is counted when it has its `other` form: `app.refused.other` alone with `app.refused.plain` is not.
  for (const [base, forms] of bases) if (!forms.includes('other') || forms.length < 2) bases.delete(base)
  return bases
}

/**
 * A word set's dictionaries (or their loaders) by language, from the files a bundler's glob found
 * in the languages' folders (a glob of `words/<lang>/verify.ts`: `.../words/de/verify.ts` -> de).
 * Every language of LANGUAGES is there: a language without its file is an error that names the
 * file, a folder of no language is left out. A new language is one line in languages.ts and one
 * folder, host/shared/words/<lang>/ (docs/development.md, "Words and languages").
 */
export function byLanguage<T>(files: Readonly<Record<string, T>>, codes: readonly Language[]): Record<Language, T> {
  const named = new Map(Object.entries(files).map(([file, value]) => [/([^/]+)\/[^/]+\.[jt]sx?$/.exec(file)?.[1], value]))
  const missing = codes.filter((code) => !named.has(code))
  if (missing.length) throw new Error(`no dictionary for ${missing.join(', ')} among ${Object.keys(files).join(', ') || 'no files'}`)
  return Object.fromEntries(codes.map((code) => [code, named.get(code)!])) as Record<Language, T>
}
