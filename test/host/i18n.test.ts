/**
 * The one core the service's words go through (host/shared/i18n.ts): flat keys, named
 * placeholders, plural forms picked by the language's rules, English for a missing key.
 * Database: none.
 */
import { describe, expect, it } from 'vitest'
import { byLanguage, fill, format, pluralForm, pluralFormsOf, pluralKeys, translate } from '../../host/shared/i18n.js'

const en = { hello: 'Hello {name}', 'files.one': '{count} file', 'files.other': '{count} files', only: 'Only in English' }
const pl = { hello: 'Cześć {name}', 'files.one': '{count} plik', 'files.few': '{count} pliki', 'files.many': '{count} plików', 'files.other': '{count} pliku' }

describe('the words core', () => {
  it('fills named placeholders, keeping one it is not given', () => {
    expect(fill('Hello {name}, {name}! {missing}', { name: 'Ann' })).toBe('Hello Ann, Ann! {missing}')
    expect(format(en, 'hello', { name: 'Ann' })).toBe('Hello Ann')
    expect(format(en, 'hello')).toBe('Hello {name}')
  })

  it("picks the plural form of the language's rules, `other` standing in for a form it lacks", () => {
    expect([1, 2, 5, 22, 25].map((count) => format(pl, 'files', { count }, 'pl', en))).toEqual(['1 plik', '2 pliki', '5 plików', '22 pliki', '25 plików'])
    expect([0, 1, 2].map((count) => format(en, 'files', { count }, 'en'))).toEqual(['0 files', '1 file', '2 files'])
    // Hebrew has a form for two; a dictionary without it reads `other`.
    expect(format({ 'files.one': 'קובץ {count}', 'files.other': '{count} קבצים' }, 'files', { count: 2 }, 'he')).toBe('2 קבצים')
    // A form named outright is that form.
    expect(format(pl, 'files.few', { count: 7 }, 'pl')).toBe('7 pliki')
    expect([pluralForm('pl', 3), pluralForm('he', 2), pluralForm('ja', 1), pluralForm('fr', 0)]).toEqual(['few', 'two', 'other', 'one'])
    expect([pluralFormsOf('pl'), pluralFormsOf('he'), pluralFormsOf('ja'), pluralFormsOf('fr')]).toEqual([['one', 'few', 'many', 'other'], ['one', 'two', 'other'], ['other'], ['one', 'other']])
  })

  it('reads a key the language lacks in English, and an unknown key as itself', () => {
    expect(format(pl, 'only', undefined, 'pl', en)).toBe('Only in English')
    expect(format(undefined, 'hello', { name: 'Jo' }, 'de', en)).toBe('Hello Jo')
    expect(format(pl, 'team.created', { name: 'Jo' }, 'pl', en)).toBe('team.created')
    expect(translate({ en, pl }, 'pl', 'files', { count: 3 })).toBe('3 pliki')
    expect(translate({ en }, 'de', 'files', { count: 3 })).toBe('3 files')
  })

  it('gathers a word set by the languages listed, naming a missing file', () => {
    expect(byLanguage({ './words/en/verify.ts': 1, './words/de/verify.ts': 2, './words/README/verify.ts': 3 }, ['en', 'de'])).toEqual({ en: 1, de: 2 })
    expect(() => byLanguage({ './words/en/verify.ts': 1 }, ['en', 'de', 'fr'])).toThrow('no dictionary for de, fr among ./words/en/verify.ts')
  })

  it('tells the counted keys of a dictionary by their forms', () => {
    expect([...pluralKeys({ ...en, 'refused.other': 'x', 'refused.plain': 'y' })]).toEqual([['files', ['one', 'other']]])
  })
})
