/**
 * Conditional fields and formulas (host/shared/field-logic): the formula language, its caps and
 * hostile sources, rules and effects, the decision order, and the server's validation. Pure
 * functions: no host, no database.
 */
import { describe, expect, it } from 'vitest'
import {
  checkFieldLogic, computeFormula, decideFields, evaluateFormula, formatNumber, parseFormula, parseNumber, readLogic,
  sameNumber, MAX_FORMULA_DEPTH, MAX_FORMULA_LENGTH, MAX_FORMULA_TOKENS, MAX_RULES,
  type Condition, type FieldValue, type LogicField, type Rule, type RuleTest,
} from '../../host/shared/field-logic/index.js'

// A formula over named numbers: a label not given is an unknown field.
function calc(source: string, numbers: Record<string, number> = {}): { value: string } | { error: string } {
  const known = new Map(Object.entries(numbers))
  return computeFormula(source, (label) => known.get(label) ?? { error: `No field is labelled "${label}"` })
}
const value = (source: string, numbers?: Record<string, number>): string => {
  const result = calc(source, numbers)
  if ('error' in result) throw new Error(`${source}: ${result.error}`)
  return result.value
}
const failure = (source: string) => {
  const parsed = parseFormula(source)
  if (!('error' in parsed)) throw new Error(`${source} parsed`)
  return parsed
}

let nextId = 1
function field(type: string, label: string | null, extra: Partial<LogicField> = {}): LogicField {
  return { id: nextId++, type, label, required: false, ...extra }
}
function decide(fields: LogicField[], byLabel: Record<string, FieldValue> = {}) {
  const values = new Map<number, FieldValue>()
  for (const f of fields) if (f.label != null && byLabel[f.label] !== undefined) values.set(f.id, byLabel[f.label] ?? null)
  const states = decideFields(fields, values)
  return (f: LogicField) => {
    const state = states.get(f.id)
    if (!state) throw new Error(`no state for ${f.label}`)
    return state
  }
}
const when = (effect: Condition['effect'], ...rules: Rule[]): Condition => ({ effect, match: 'all', rules })

describe('formulas: the language', () => {
  it('follows arithmetic precedence and left associativity', () => {
    expect(value('1 + 2 * 3')).toBe('7')
    expect(value('(1 + 2) * 3')).toBe('9')
    expect(value('10 - 4 - 3')).toBe('3')
    expect(value('8 / 4 / 2')).toBe('1')
    expect(value('2 * 3 / 4')).toBe('1.5')
    expect(value('2 + 3 * (4 - 1) / 2')).toBe('6.5')
    expect(value('.5 + 3.25')).toBe('3.75')
  })

  it('negates with unary minus, also after an operator and in runs', () => {
    expect(value('-3 + 5')).toBe('2')
    expect(value('2 * -3')).toBe('-6')
    expect(value('2 - -3')).toBe('5')
    expect(value('--4')).toBe('4')
    expect(value('- - -1')).toBe('-1')
    expect(value('-(2 + 3) * 2')).toBe('-10')
    expect(value('-0')).toBe('0')
    expect(value('0 * -1')).toBe('0')
  })

  it('rounds half away from zero, to 0..10 digits, and as a decimal is written', () => {
    expect(value('round(2.5)')).toBe('3')
    expect(value('round(-2.5)')).toBe('-3')
    expect(value('round(2.4999)')).toBe('2')
    expect(value('round(3.14159, 3)')).toBe('3.142')
    expect(value('round(1.005, 2)')).toBe('1.01')
    expect(value('round(-1.005, 2)')).toBe('-1.01')
    expect(value('round(1234.5678, 0)')).toBe('1235')
    expect(value('round(1 / 3, 10)')).toBe('0.3333333333')
    expect(calc('round(1, 11)')).toEqual({ error: 'round(…) keeps 0 to 10 digits, not 11' })
    expect(calc('round(1, -1)')).toEqual({ error: 'round(…) keeps 0 to 10 digits, not -1' })
    expect(calc('round(1, 1.5)')).toEqual({ error: 'round(…) keeps 0 to 10 digits, not 1.5' })
  })

  it('takes min, max and sum of one or more arguments', () => {
    expect(value('min(3, 1, 2)')).toBe('1')
    expect(value('max(3, 1, 2)')).toBe('3')
    expect(value('sum(1, 2, 3.5)')).toBe('6.5')
    expect(value('sum(7)')).toBe('7')
    expect(value('max(min(4, 9), -2) + sum(1, round(2.6))')).toBe('8')
    expect(failure('sum()')).toEqual({ error: 'sum(…) needs at least one argument', at: 0 })
    expect(failure('1 + max()')).toEqual({ error: 'max(…) needs at least one argument', at: 4 })
    expect(failure('round(1, 2, 3)').at).toBe(0)
  })

  it('reads fields by {label} (trimmed, spaces inside) or by bare identifier, case-sensitively', () => {
    expect(value('{ Unit price } * quantity', { 'Unit price': 2.5, quantity: 4 })).toBe('10')
    expect(value('{Unit price}*{quantity}', { 'Unit price': 2.5, quantity: 4 })).toBe('10')
    expect(value('_x1 + A_b', { _x1: 1, A_b: 2 })).toBe('3')
    expect(calc('Quantity', { quantity: 4 })).toEqual({ error: 'No field is labelled "Quantity"' })
    const parsed = parseFormula('{a} + b * {a} + { c d }')
    expect('references' in parsed && parsed.references).toEqual(['a', 'b', 'c d'])
  })

  it('says "Division by zero", also when the divisor is computed', () => {
    expect(calc('1 / 0')).toEqual({ error: 'Division by zero' })
    expect(calc('5 / (2 - 2)')).toEqual({ error: 'Division by zero' })
    expect(calc('x / y', { x: 1, y: 0 })).toEqual({ error: 'Division by zero' })
    expect(value('0 / 5')).toBe('0')
  })

  it('reports parse errors with what went wrong and the character (0-based) it starts at', () => {
    expect(failure('')).toEqual({ error: 'The formula is empty', at: 0 })
    expect(failure('   ')).toEqual({ error: 'The formula is empty', at: 0 })
    expect(failure('1 +')).toEqual({ error: 'The formula ends too early', at: 3 })
    expect(failure('(1 + 2')).toEqual({ error: 'A "(" is not closed', at: 0 })
    expect(failure('1 + * 2')).toEqual({ error: 'Unexpected "*"', at: 4 })
    expect(failure('1 2')).toEqual({ error: 'Unexpected "2"', at: 2 })
    expect(failure('(1))')).toEqual({ error: 'Unexpected ")"', at: 3 })
    expect(failure('2 $ 3')).toEqual({ error: 'Unexpected character "$"', at: 2 })
    expect(failure('foo(1)')).toEqual({ error: 'Unknown function "foo"', at: 0 })
    expect(failure('2 * round')).toEqual({ error: '"round" is a function: write round(…)', at: 4 })
    expect(failure('1 + {abc')).toEqual({ error: 'A "{" is not closed by "}"', at: 4 })
    expect(failure('{a {b}}')).toEqual({ error: 'A "{" is not closed by "}"', at: 0 })
    expect(failure('{  }')).toEqual({ error: 'Empty field reference "{}"', at: 0 })
    expect(failure('max(1 2)')).toEqual({ error: 'Expected ")" but found "2"', at: 6 })
    expect(failure('1.')).toEqual({ error: 'Unexpected character "."', at: 1 })
    expect(failure('+1')).toEqual({ error: 'Unexpected "+"', at: 0 })
    expect(failure('1\u0000')).toEqual({ error: 'Unexpected character U+0000', at: 1 })
    expect(failure('\ud800')).toEqual({ error: 'Unexpected character U+D800', at: 0 })
    expect(calc('1 +')).toEqual({ error: 'The formula ends too early (at character 4)' })
  })
})

describe('formulas: caps', () => {
  it(`rejects a source longer than ${MAX_FORMULA_LENGTH} characters, not one of exactly that length`, () => {
    expect(value(`1${' '.repeat(MAX_FORMULA_LENGTH - 1)}`)).toBe('1')
    expect(failure(`1${' '.repeat(MAX_FORMULA_LENGTH)}`)).toEqual({ error: `The formula is longer than ${MAX_FORMULA_LENGTH} characters`, at: MAX_FORMULA_LENGTH })
    expect(failure('('.repeat(100_000)).at).toBe(MAX_FORMULA_LENGTH)
  })

  it(`rejects nesting deeper than ${MAX_FORMULA_DEPTH}, by parentheses or by function calls`, () => {
    const nest = (n: number) => `${'('.repeat(n)}1${')'.repeat(n)}`
    expect(value(nest(MAX_FORMULA_DEPTH))).toBe('1')
    expect(failure(nest(MAX_FORMULA_DEPTH + 1))).toEqual({ error: `The formula nests deeper than ${MAX_FORMULA_DEPTH} levels`, at: MAX_FORMULA_DEPTH })
    const calls = (n: number) => `${'sum('.repeat(n)}1${')'.repeat(n)}`
    expect(value(calls(MAX_FORMULA_DEPTH))).toBe('1')
    expect(failure(calls(MAX_FORMULA_DEPTH + 1))).toEqual({ error: `The formula nests deeper than ${MAX_FORMULA_DEPTH} levels`, at: 4 * MAX_FORMULA_DEPTH + 3 })
  })

  it(`rejects more than ${MAX_FORMULA_TOKENS} tokens, pointing at the first one too many`, () => {
    const ones = (n: number) => Array.from({ length: n }, () => '1').join('+') // 2n - 1 tokens
    expect(value(ones(MAX_FORMULA_TOKENS / 2))).toBe(String(MAX_FORMULA_TOKENS / 2))
    const tooMany = `${ones(MAX_FORMULA_TOKENS / 2)}+1`
    expect(failure(tooMany)).toEqual({ error: `The formula has more than ${MAX_FORMULA_TOKENS} parts`, at: tooMany.length - 1 })
    // A run of minus signs counts too, so unary minus cannot dig deep either.
    expect(failure(`${'-'.repeat(200)}1`).error).toContain('more than')
  })
})

describe('formulas: hostile sources', () => {
  it('treats object-ish names as plain labels that no field has', () => {
    for (const source of ['constructor', '__proto__', '{__proto__}', 'toString', 'hasOwnProperty', 'this', '{constructor }', 'prototype']) {
      expect(calc(source)).toEqual({ error: `No field is labelled "${source.replace(/[{}]/g, '').trim()}"` })
    }
    expect(failure('constructor(1)')).toEqual({ error: 'Unknown function "constructor"', at: 0 })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('reads a field really labelled __proto__ or constructor like any other', () => {
    const proto = field('NUMBER', '__proto__')
    const ctor = field('NUMBER', 'constructor')
    const total = field('NUMBER', 'Total', { formula: '{__proto__} + constructor' })
    const values = new Map<number, FieldValue>([[proto.id, '7'], [ctor.id, '1']])
    expect(decideFields([proto, ctor, total], values).get(total.id)?.computed).toEqual({ value: '8' })
  })

  it('refuses code-like and malformed sources at the offending character', () => {
    expect(failure('process.exit()')).toEqual({ error: 'Unexpected character "."', at: 7 })
    expect(failure('a;b')).toEqual({ error: 'Unexpected character ";"', at: 1 })
    expect(failure('`1`')).toEqual({ error: 'Unexpected character "`"', at: 0 })
    expect(failure('1e999')).toEqual({ error: 'Unexpected "e999"', at: 1 })
    expect(failure('a[0]')).toEqual({ error: 'Unexpected character "["', at: 1 })
    expect(failure('x = 1')).toEqual({ error: 'Unexpected character "="', at: 2 })
    expect(failure('"1"')).toEqual({ error: 'Unexpected character """', at: 0 })
    expect(failure('1 + 😀')).toEqual({ error: 'Unexpected character "😀"', at: 4 })
  })

  it('refuses huge numbers, and results that are not finite or print with an exponent', () => {
    expect(failure('9'.repeat(400))).toEqual({ error: 'The number is too large', at: 0 })
    expect(failure(`1 + 1${'0'.repeat(21)}`)).toEqual({ error: 'The number is too large', at: 4 })
    expect(value('123456789 * 1000000000')).toBe('123456789000000000')
    expect(calc('99999999999 * 99999999999')).toEqual({ error: 'The result is too large' })
    expect(calc('x * x', { x: 1e200 })).toEqual({ error: 'The result is too large' })
    expect(calc('x', { x: Number.NaN })).toEqual({ error: 'The result is not a number' })
  })
})

describe('numbers', () => {
  it('formats canonically: integers plainly, others to 10 decimals without trailing zeros, never "-0"', () => {
    expect(formatNumber(0.1 + 0.2)).toBe('0.3')
    expect(formatNumber(1 / 3)).toBe('0.3333333333')
    expect(formatNumber(2 / 3)).toBe('0.6666666667')
    expect(formatNumber(-0)).toBe('0')
    expect(formatNumber(-1e-12)).toBe('0')
    expect(formatNumber(123.45)).toBe('123.45')
    expect(formatNumber(1e20)).toBe('100000000000000000000')
    expect(formatNumber(1e-7)).toBe('0.0000001')
    expect(formatNumber(123456789.123)).toBe('123456789.123')
    expect(formatNumber(0.99999999999)).toBe('1')
    expect(formatNumber(-2.50000000001)).toBe('-2.5')
    expect(formatNumber(1.23e-8)).toBe('0.0000000123')
    expect(formatNumber(4e-11)).toBe('0')
    expect(value('0.1 + 0.2')).toBe('0.3')
  })

  it('reads a decimal comma or dot, nothing else', () => {
    expect(parseNumber('2,5')).toBe(2.5)
    expect(parseNumber(' 12 ')).toBe(12)
    expect(parseNumber('-,5')).toBe(-0.5)
    expect(parseNumber('+3.')).toBe(3)
    for (const text of ['', ' ', '1e3', '1.2.3', '1,2,3', 'abc', '0x10', 'Infinity', '1 000', '9'.repeat(400)]) expect(parseNumber(text)).toBeNull()
  })

  it('compares a submitted text with the computed one numerically, within float noise', () => {
    expect(sameNumber('2,5', '2.5')).toBe(true)
    expect(sameNumber('2.50', '2.5')).toBe(true)
    expect(sameNumber(' 10 ', '10')).toBe(true)
    expect(sameNumber('0.30000000001', '0.3')).toBe(true)
    expect(sameNumber('0.301', '0.3')).toBe(false)
    expect(sameNumber('1000000000.5', '1000000000.5000001')).toBe(true)
    expect(sameNumber('1000000001', '1000000000')).toBe(true) // the tolerance grows with the number
    expect(sameNumber('1000000002', '1000000000')).toBe(false)
    expect(sameNumber('', '0')).toBe(false)
    expect(sameNumber('abc', '1')).toBe(false)
  })
})

describe('decideFields: formulas on fields', () => {
  it('computes from field values: decimal commas, empty as 0, checked boxes counted, computed from computed', () => {
    const price = field('NUMBER', 'Unit price')
    const quantity = field('NUMBER', 'quantity')
    const extras = field('CHECKBOX', 'Extras', { options: ['Gift wrap', 'Express', 'Insurance'] })
    const discount = field('NUMBER', 'Discount')
    const subtotal = field('NUMBER', 'Subtotal', { formula: '{ Unit price } * quantity + 5 * {Extras} - Discount' })
    const total = field('NUMBER', 'Total', { formula: 'round(Subtotal * 1,2, 2)'.replace('1,2', '1.2') })
    const state = decide([total, subtotal, price, quantity, extras, discount], {
      'Unit price': '2,5', quantity: ' 4 ', Extras: ['Express', 'Insurance'], Discount: '', Total: '999', Subtotal: 'ignored',
    })
    expect(state(subtotal).computed).toEqual({ value: '20' })
    expect(state(total).computed).toEqual({ value: '24' })
    expect(state(price).computed).toBeUndefined()
  })

  it('names a NUMBER field whose text is not a number, and a reference to a missing label', () => {
    const a = field('NUMBER', 'Amount')
    const b = field('NUMBER', 'B', { formula: 'Amount * 2' })
    const c = field('NUMBER', 'C', { formula: '{Nope} + 1' })
    const state = decide([a, b, c], { Amount: 'twelve' })
    expect(state(b).computed).toEqual({ error: '"Amount" is not a number' })
    expect(state(c).computed).toEqual({ error: 'No field is labelled "Nope"' })
  })

  it('gives parse errors and division by zero as computed errors, and a formula reading an error fails too', () => {
    const zero = field('NUMBER', 'Zero')
    const ratio = field('NUMBER', 'Ratio', { formula: '10 / Zero' })
    const after = field('NUMBER', 'After', { formula: 'Ratio + 1' })
    const broken = field('NUMBER', 'Broken', { formula: '1 +' })
    const state = decide([zero, ratio, after, broken], { Zero: '0' })
    expect(state(ratio).computed).toEqual({ error: 'Division by zero' })
    expect(state(after).computed).toEqual({ error: '"Ratio" could not be computed' })
    expect(state(broken).computed).toEqual({ error: 'The formula ends too early (at character 4)' })
  })

  it('reads a hidden field as 0 (and a hidden computed field too)', () => {
    const agree = field('CHECKBOX', 'Has extra', { options: ['yes'] })
    const extra = field('NUMBER', 'Extra', { condition: when('show', { field: 'Has extra', test: 'checked' }) })
    const doubled = field('NUMBER', 'Doubled', { formula: 'Extra * 2', condition: when('show', { field: 'Has extra', test: 'checked' }) })
    const total = field('NUMBER', 'Total', { formula: '100 + Extra + Doubled' })
    const hidden = decide([agree, extra, doubled, total], { Extra: '5', 'Has extra': [] })
    expect(hidden(extra).visible).toBe(false)
    expect(hidden(total).computed).toEqual({ value: '100' })
    const shown = decide([agree, extra, doubled, total], { Extra: '5', 'Has extra': ['yes'] })
    expect(shown(total).computed).toEqual({ value: '115' })
  })
})

describe('decideFields: conditions', () => {
  // One rule on one source field: whether the dependent field shows for a value of the source.
  function shows(type: string, test: RuleTest, ruleValue: string | number | undefined, given: FieldValue, options?: string[]): boolean {
    const source = field(type, 'Source', options ? { options } : {})
    const rule: Rule = ruleValue === undefined ? { field: 'Source', test } : { field: 'Source', test, value: ruleValue }
    const target = field('TEXT', 'Target', { condition: when('show', rule) })
    return decide([source, target], { Source: given })(target).visible
  }

  it('checked / unchecked on CHECKBOX: any option, or the one named', () => {
    const opts = ['A', 'B']
    expect(shows('CHECKBOX', 'checked', undefined, ['A'], opts)).toBe(true)
    expect(shows('CHECKBOX', 'checked', undefined, [], opts)).toBe(false)
    expect(shows('CHECKBOX', 'checked', undefined, null, opts)).toBe(false)
    expect(shows('CHECKBOX', 'checked', 'B', ['A'], opts)).toBe(false)
    expect(shows('CHECKBOX', 'checked', 'B', ['A', 'B'], opts)).toBe(true)
    expect(shows('CHECKBOX', 'unchecked', undefined, [], opts)).toBe(true)
    expect(shows('CHECKBOX', 'unchecked', undefined, ['A'], opts)).toBe(false)
    expect(shows('CHECKBOX', 'unchecked', 'B', ['A'], opts)).toBe(true)
    expect(shows('CHECKBOX', 'unchecked', 'A', ['A'], opts)).toBe(false)
  })

  it('equals / notEquals on RADIO, DROPDOWN, TEXT (trimmed), NUMBER (numerically) and CHECKBOX (option included)', () => {
    expect(shows('RADIO', 'equals', 'Yes', 'Yes', ['Yes', 'No'])).toBe(true)
    expect(shows('RADIO', 'equals', 'Yes', 'No', ['Yes', 'No'])).toBe(false)
    expect(shows('RADIO', 'equals', 'Yes', 'yes', ['Yes', 'No'])).toBe(false)
    expect(shows('DROPDOWN', 'equals', 'France', 'France', ['France', 'Spain'])).toBe(true)
    expect(shows('DROPDOWN', 'notEquals', 'France', 'Spain', ['France', 'Spain'])).toBe(true)
    expect(shows('DROPDOWN', 'notEquals', 'France', 'France', ['France', 'Spain'])).toBe(false)
    expect(shows('TEXT', 'equals', 'hello', '  hello ')).toBe(true)
    expect(shows('TEXT', 'equals', 'hello', 'Hello')).toBe(false)
    expect(shows('TEXT', 'notEquals', 'hello', null)).toBe(true)
    expect(shows('NUMBER', 'equals', 2.5, '2,50')).toBe(true)
    expect(shows('NUMBER', 'equals', '2,5', '2.5')).toBe(true)
    expect(shows('NUMBER', 'equals', 3, '3.1')).toBe(false)
    expect(shows('NUMBER', 'equals', 0, '')).toBe(false)
    expect(shows('NUMBER', 'notEquals', 3, 'abc')).toBe(true)
    expect(shows('CHECKBOX', 'equals', 'B', ['A', 'B'], ['A', 'B'])).toBe(true)
    expect(shows('CHECKBOX', 'equals', 'B', ['A'], ['A', 'B'])).toBe(false)
    expect(shows('CHECKBOX', 'notEquals', 'B', ['A'], ['A', 'B'])).toBe(true)
  })

  it('empty / notEmpty on any type: blank text, no option, no signature', () => {
    expect(shows('TEXT', 'empty', undefined, '   ')).toBe(true)
    expect(shows('TEXT', 'empty', undefined, 'x')).toBe(false)
    expect(shows('TEXT', 'notEmpty', undefined, 'x')).toBe(true)
    expect(shows('CHECKBOX', 'empty', undefined, [], ['A'])).toBe(true)
    expect(shows('CHECKBOX', 'notEmpty', undefined, ['A'], ['A'])).toBe(true)
    expect(shows('SIGNATURE', 'notEmpty', undefined, 'data:image/png;base64,AAAA')).toBe(true)
    expect(shows('SIGNATURE', 'empty', undefined, null)).toBe(true)
    expect(shows('RADIO', 'empty', undefined, 'Yes', ['Yes'])).toBe(false)
  })

  it('greaterThan / lessThan / atLeast / atMost compare numbers; an empty or non-number field never matches', () => {
    const at = (test: RuleTest, given: FieldValue) => shows('NUMBER', test, 5, given)
    expect([at('greaterThan', '6'), at('greaterThan', '5'), at('greaterThan', '4,9')]).toEqual([true, false, false])
    expect([at('lessThan', '4'), at('lessThan', '5'), at('lessThan', '5,1')]).toEqual([true, false, false])
    expect([at('atLeast', '5'), at('atLeast', '5,0'), at('atLeast', '4.99')]).toEqual([true, true, false])
    expect([at('atMost', '5'), at('atMost', '-7'), at('atMost', '5.01')]).toEqual([true, true, false])
    for (const test of ['greaterThan', 'lessThan', 'atLeast', 'atMost'] as const) {
      expect(at(test, '')).toBe(false)
      expect(at(test, null)).toBe(false)
      expect(at(test, 'five')).toBe(false)
    }
    expect(shows('NUMBER', 'lessThan', '10,5', '10.25')).toBe(true)
  })

  it('compares a computed field by its computed value, not by what was submitted for it', () => {
    const a = field('NUMBER', 'A')
    const sum = field('NUMBER', 'Sum', { formula: 'A + 1' })
    const big = field('TEXT', 'Big', { condition: when('show', { field: 'Sum', test: 'greaterThan', value: 10 }) })
    expect(decide([big, sum, a], { A: '10', Sum: '0' })(big).visible).toBe(true)
    expect(decide([big, sum, a], { A: '9', Sum: '100' })(big).visible).toBe(false)
  })

  it('matches all or any of the rules', () => {
    const a = field('CHECKBOX', 'A', { options: ['x'] })
    const b = field('TEXT', 'B')
    const rules: Rule[] = [{ field: 'A', test: 'checked' }, { field: 'B', test: 'equals', value: 'go' }]
    const all = field('TEXT', 'All', { condition: { effect: 'show', match: 'all', rules } })
    const any = field('TEXT', 'Any', { condition: { effect: 'show', match: 'any', rules } })
    const fields = [a, b, all, any]
    const one = decide(fields, { A: ['x'], B: 'stop' })
    expect([one(all).visible, one(any).visible]).toEqual([false, true])
    const both = decide(fields, { A: ['x'], B: 'go' })
    expect([both(all).visible, both(any).visible]).toEqual([true, true])
    const none = decide(fields, { A: [], B: '' })
    expect([none(all).visible, none(any).visible]).toEqual([false, false])
  })

  it('applies show, hide, require and optional; a hidden field is never required', () => {
    const flag = field('CHECKBOX', 'Flag', { options: ['on'] })
    const rule: Rule = { field: 'Flag', test: 'checked' }
    const shown = field('TEXT', 'Shown', { required: true, condition: when('show', rule) })
    const hidden = field('TEXT', 'Hidden', { required: true, condition: when('hide', rule) })
    const required = field('TEXT', 'Required', { condition: when('require', rule) })
    const optional = field('TEXT', 'Optional', { required: true, condition: when('optional', rule) })
    const plain = field('TEXT', 'Plain', { required: true })
    const fields = [flag, shown, hidden, required, optional, plain]
    const on = decide(fields, { Flag: ['on'] })
    expect([shown, hidden, required, optional, plain].map(on)).toEqual([
      { visible: true, required: true }, { visible: false, required: false }, { visible: true, required: true },
      { visible: true, required: false }, { visible: true, required: true },
    ])
    const off = decide(fields, { Flag: [] })
    expect([shown, hidden, required, optional, plain].map(off)).toEqual([
      { visible: false, required: false }, { visible: true, required: true }, { visible: true, required: false },
      { visible: true, required: true }, { visible: true, required: true },
    ])
  })

  it('chains visibility (A shows B, B shows C) whatever the order of the list, a hidden field reading as empty', () => {
    const a = field('CHECKBOX', 'A', { options: ['yes'] })
    const b = field('TEXT', 'B', { condition: when('show', { field: 'A', test: 'checked' }) })
    const c = field('TEXT', 'C', { condition: when('show', { field: 'B', test: 'notEmpty' }) })
    const d = field('TEXT', 'D', { condition: when('hide', { field: 'C', test: 'equals', value: 'x' }) })
    for (const fields of [[a, b, c, d], [d, c, b, a], [c, a, d, b]]) {
      const on = decide(fields, { A: ['yes'], B: 'text', C: 'x' })
      expect([on(b).visible, on(c).visible, on(d).visible]).toEqual([true, true, false])
      // B still holds text, but hidden it counts as empty: C hides, so D no longer sees "x".
      const off = decide(fields, { A: [], B: 'text', C: 'x' })
      expect([off(b).visible, off(c).visible, off(d).visible]).toEqual([false, false, true])
    }
  })

  it('never throws on cycles, unknown labels or malformed conditions it is given anyway', () => {
    const a = field('NUMBER', 'A', { formula: 'B + 1' })
    const b = field('NUMBER', 'B', { formula: 'A + 1' })
    const self = field('TEXT', 'Self', { condition: when('show', { field: 'Self', test: 'notEmpty' }) })
    const ghost = field('TEXT', 'Ghost', { condition: when('show', { field: 'Nobody', test: 'empty' }) })
    const junk = field('TEXT', 'Junk', { required: true, condition: { effect: 'explode', match: 'all', rules: 'no' } as unknown as Condition })
    const state = decide([a, b, self, ghost, junk], { Self: 'x' })
    expect(state(a).computed).toEqual({ error: '"B" refers back to this field' })
    expect(state(b).computed).toEqual({ error: '"A" could not be computed' })
    expect(state(self).visible).toBe(false)
    expect(state(ghost).visible).toBe(true)
    expect(state(junk)).toEqual({ visible: true, required: true })
  })
})

describe('checkFieldLogic', () => {
  const messages = (fields: LogicField[]) => checkFieldLogic(fields).map(({ fieldId, path, message }) => ({ fieldId, path, message }))

  it('accepts a sound set of conditions and formulas', () => {
    const fields = [
      field('NUMBER', 'Unit price'), field('NUMBER', 'Quantity'), field('CHECKBOX', 'Extras', { options: ['Gift', 'Express'] }),
      field('RADIO', 'Pay by', { options: ['Card', 'Invoice'] }),
      field('NUMBER', 'Total', { formula: '{Unit price} * Quantity + Extras', condition: when('require', { field: 'Quantity', test: 'atLeast', value: '1,5' }) }),
      field('TEXT', 'Invoice address', { condition: { effect: 'show', match: 'any', rules: [
        { field: 'Pay by', test: 'equals', value: 'Invoice' }, { field: 'Extras', test: 'checked', value: 'Express' },
        { field: 'Total', test: 'greaterThan', value: 100 }, { field: 'Unit price', test: 'empty' },
      ] } }),
      field('TEXT', 'Note', { formula: '  ' }),
    ]
    expect(checkFieldLogic(fields)).toEqual([])
  })

  it('reports unknown, ambiguous and self references where they are written', () => {
    const twinA = field('TEXT', 'Twin')
    const twinB = field('TEXT', ' Twin ')
    const reader = field('TEXT', 'Reader', { condition: when('show', { field: 'Ghost', test: 'empty' }, { field: 'Twin', test: 'empty' }) })
    const formula = field('NUMBER', 'F', { formula: '{Nobody} + F' })
    const self = field('TEXT', 'Me', { condition: when('hide', { field: 'Me', test: 'empty' }) })
    expect(messages([twinA, twinB, reader, formula, self])).toEqual([
      { fieldId: reader.id, path: ['condition', 'rules', 0, 'field'], message: 'No field is labelled "Ghost"' },
      { fieldId: reader.id, path: ['condition', 'rules', 1, 'field'], message: '2 fields are labelled "Twin": give them different labels' },
      { fieldId: formula.id, path: ['formula'], message: 'No field is labelled "Nobody"' },
      { fieldId: formula.id, path: ['formula'], message: 'A formula cannot refer to its own field' },
      { fieldId: self.id, path: ['condition', 'rules', 0, 'field'], message: 'A condition cannot refer to its own field' },
    ])
  })

  it('names the fields of a cycle: two fields, and three through a condition and formulas', () => {
    const x = field('TEXT', 'X', { condition: when('show', { field: 'Y', test: 'notEmpty' }) })
    const y = field('TEXT', 'Y', { condition: when('show', { field: 'X', test: 'notEmpty' }) })
    expect(messages([x, y])).toEqual([{ fieldId: x.id, path: ['condition', 'rules', 0, 'field'], message: 'Circular reference: "X" → "Y" → "X"' }])

    const a = field('NUMBER', 'A', { formula: '{B} + 1' })
    const b = field('NUMBER', 'B', { condition: when('show', { field: 'C', test: 'greaterThan', value: 0 }) })
    const c = field('NUMBER', 'C', { formula: 'A * 2' })
    const outside = field('NUMBER', 'Outside', { formula: 'A + C' })
    expect(messages([outside, a, b, c])).toEqual([{ fieldId: a.id, path: ['formula'], message: 'Circular reference: "A" → "B" → "C" → "A"' }])
  })

  it('reports a formula on a non-NUMBER field, one that does not parse or exceeds a cap, and one reading a TEXT field', () => {
    const text = field('TEXT', 'T', { formula: '1 + 1' })
    const bad = field('NUMBER', 'Bad', { formula: '2 * (3' })
    const long = field('NUMBER', 'Long', { formula: '1'.repeat(MAX_FORMULA_LENGTH + 1) })
    const reads = field('NUMBER', 'Reads', { formula: 'T * 2' })
    const notText = field('NUMBER', 'NotText', { formula: 42 as unknown as string })
    expect(messages([text, bad, long, reads, notText])).toEqual([
      { fieldId: text.id, path: ['formula'], message: 'Only a NUMBER field can have a formula, not a TEXT field' },
      { fieldId: bad.id, path: ['formula'], message: 'A "(" is not closed (at character 5)' },
      { fieldId: long.id, path: ['formula'], message: `The formula is longer than ${MAX_FORMULA_LENGTH} characters (at character ${MAX_FORMULA_LENGTH + 1})` },
      { fieldId: reads.id, path: ['formula'], message: 'A formula reads NUMBER and CHECKBOX fields only; "T" is a TEXT field' },
      { fieldId: notText.id, path: ['formula'], message: 'The formula must be text' },
    ])
  })

  it('reports tests that do not fit the field type, missing or extra values, and values that are not options or numbers', () => {
    const text = field('TEXT', 'Text')
    const box = field('CHECKBOX', 'Box', { options: ['A', 'B'] })
    const radio = field('RADIO', 'Radio', { options: ['Yes', 'No'] })
    const drop = field('DROPDOWN', 'Drop', { options: ['Red'] })
    const num = field('NUMBER', 'Num')
    const sig = field('SIGNATURE', 'Sig')
    const rules: Rule[] = [
      { field: 'Text', test: 'checked' }, // 0
      { field: 'Box', test: 'greaterThan', value: 1 }, // 1
      { field: 'Radio', test: 'equals' }, // 2
      { field: 'Text', test: 'empty', value: 'x' }, // 3
      { field: 'Radio', test: 'equals', value: 'Maybe' }, // 4
      { field: 'Drop', test: 'notEquals', value: 'Blue' }, // 5
      { field: 'Box', test: 'equals', value: 'C' }, // 6
      { field: 'Box', test: 'checked', value: 'Z' }, // 7
      { field: 'Num', test: 'equals', value: 'abc' }, // 8
      { field: 'Num', test: 'atMost', value: '1,5' }, // 9 fine
      { field: 'Sig', test: 'equals', value: 'x' }, // 10
      { field: 'Sig', test: 'notEmpty' }, // 11 fine
      { field: 'Num', test: 'lessThan', value: 'ten' }, // 12
    ]
    const target = field('TEXT', 'Target', { condition: { effect: 'show', match: 'any', rules } })
    expect(messages([text, box, radio, drop, num, sig, target]).map(({ path, message }) => [path[2], path[3], message])).toEqual([
      [0, 'test', 'The test "checked" does not apply to a TEXT field ("Text")'],
      [1, 'test', 'The test "greaterThan" does not apply to a CHECKBOX field ("Box")'],
      [2, 'value', 'The test "equals" needs a value'],
      [3, 'value', 'The test "empty" takes no value'],
      [4, 'value', '"Maybe" is not one of the options of "Radio"'],
      [5, 'value', '"Blue" is not one of the options of "Drop"'],
      [6, 'value', '"C" is not one of the options of "Box"'],
      [7, 'value', '"Z" is not one of the options of "Box"'],
      [8, 'value', 'The test "equals" compares numbers: "abc" is not a number'],
      [10, 'test', 'The test "equals" does not apply to a SIGNATURE field ("Sig")'],
      [12, 'value', 'The test "lessThan" compares numbers: "ten" is not a number'],
    ])
  })

  it(`reports a condition with no rules or more than ${MAX_RULES}`, () => {
    const other = field('TEXT', 'Other')
    const none = field('TEXT', 'None', { condition: { effect: 'show', match: 'all', rules: [] } })
    const rule: Rule = { field: 'Other', test: 'empty' }
    const many = field('TEXT', 'Many', { condition: { effect: 'show', match: 'all', rules: Array.from({ length: MAX_RULES + 1 }, () => rule) } })
    const enough = field('TEXT', 'Enough', { condition: { effect: 'show', match: 'all', rules: Array.from({ length: MAX_RULES }, () => rule) } })
    expect(messages([other, none, many, enough])).toEqual([
      { fieldId: none.id, path: ['condition', 'rules'], message: 'A condition needs at least one rule' },
      { fieldId: many.id, path: ['condition', 'rules'], message: `A condition has at most ${MAX_RULES} rules` },
    ])
  })

  it('checks every shape of untrusted JSON without throwing', () => {
    const other = field('TEXT', 'Other')
    const bad = (condition: unknown) => field('TEXT', null, { condition: condition as Condition })
    const fields = [
      other,
      bad('show'),
      bad([]),
      bad({ effect: 'explode', match: 'most', rules: [{ field: 'Other', test: 'isPurple' }] }),
      bad({ effect: 'show', match: 'all', rules: { length: 1e9 } }),
      bad({ effect: 'show', match: 'all', rules: [null, 'rule', { test: 'empty' }, { field: 'Other', test: 'equals', value: { x: 1 } }] }),
      bad({ effect: 'show', match: 'all', rules: [{ field: 7, test: 'empty' }, { field: 'Other', test: 'equals', value: Number.NaN }] }),
    ]
    const found = messages(fields).map(({ path, message }) => `${path.join('.')}: ${message}`)
    expect(found).toEqual([
      'condition: The condition must be an object with effect, match and rules',
      'condition: The condition must be an object with effect, match and rules',
      'condition.effect: Unknown effect "explode": use one of show, hide, require, optional',
      'condition.match: Unknown match "most": use one of all, any',
      'condition.rules.0.test: Unknown test "isPurple": use one of checked, unchecked, equals, notEquals, empty, notEmpty, greaterThan, lessThan, atLeast, atMost',
      'condition.rules: The rules must be a list',
      'condition.rules.0: A rule must be an object with field, test and value',
      'condition.rules.1: A rule must be an object with field, test and value',
      'condition.rules.2.field: A rule must name a field by its label',
      'condition.rules.3.value: The value must be text or a number',
      'condition.rules.0.field: A rule must name a field by its label',
      'condition.rules.1.value: The value must be text or a number',
    ])
    expect(checkFieldLogic(null as unknown as LogicField[])).toEqual([])
    expect(decideFields(fields, new Map()).size).toBe(fields.length)
  })
})

describe('scale', () => {
  it('decides and checks a 10,000-field chain and a 10,000-field cycle without deep recursion, in linear time', () => {
    const n = 10_000
    const chain: LogicField[] = Array.from({ length: n }, (_, i) => ({
      id: i + 1, type: 'TEXT', label: `F${i}`, required: true,
      condition: i === 0 ? null : when('show', { field: `F${i - 1}`, test: 'notEmpty' }),
    }))
    const started = performance.now()
    const values = new Map<number, FieldValue>(chain.map((f) => [f.id, 'x']))
    values.set(n / 2, '') // F(n/2 - 1) empty: everything after it hides
    const states = decideFields(chain.slice().reverse(), values)
    expect(states.get(n / 2)?.visible).toBe(true)
    expect(states.get(n / 2 + 1)).toEqual({ visible: false, required: false })
    expect(states.get(n)?.visible).toBe(false)
    expect(checkFieldLogic(chain)).toEqual([])

    const cycle = chain.map((f, i) => ({ ...f, condition: when('show', { field: `F${(i + 1) % n}`, test: 'notEmpty' }) }))
    const issues = checkFieldLogic(cycle)
    expect(issues).toHaveLength(1)
    expect(issues[0]?.message).toBe(`Circular reference: ${Array.from({ length: 10 }, (_, i) => `"F${i}"`).join(' → ')} → … (${n} fields) → "F0"`)
    expect(decideFields(cycle, values).size).toBe(n)
    expect(performance.now() - started).toBeLessThan(5000)
  })

  it('skips list entries that are not objects, and takes values that are not a Map as none', () => {
    const fields = [null, 'x', field('TEXT', 'A', { required: true })] as unknown as LogicField[]
    expect(checkFieldLogic(fields)).toEqual([])
    expect([...decideFields(fields, null as unknown as Map<number, FieldValue>).values()]).toEqual([{ visible: true, required: true }])
  })
})

describe('readLogic', () => {
  it('takes condition and formula from fieldMeta as they are, and nothing else', () => {
    const condition = when('show', { field: 'A', test: 'empty' })
    expect(readLogic({ condition, formula: 'A + 1', fontSize: 12 })).toEqual({ condition, formula: 'A + 1' })
    expect(readLogic({ condition: null, formula: null })).toEqual({})
    for (const meta of [null, undefined, 'x', 42, [], [{ formula: '1' }]]) expect(readLogic(meta)).toEqual({})
    // Kept though malformed, so that check can say what is wrong.
    expect(readLogic({ condition: 'show', formula: 7 })).toEqual({ condition: 'show', formula: 7 })
    // Inherited keys and a JSON "__proto__" key are not fieldMeta's own logic.
    expect(readLogic(Object.create({ formula: '1' }))).toEqual({})
    expect(readLogic(JSON.parse('{"__proto__": {"formula": "1"}}'))).toEqual({})
  })
})

describe('random input', () => {
  // A small deterministic generator (mulberry32): the same strings on every run.
  function random(seed: number) {
    let a = seed >>> 0
    return () => {
      a = (a + 0x6d2b79f5) >>> 0
      let t = a
      t = Math.imul(t ^ (t >>> 15), t | 1)
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296
    }
  }
  const ALPHABET = ['1', '2', '0', '9', '.', ',', ' ', '+', '-', '*', '/', '(', ')', '{', '}', 'a', 'x', 'e', '_', 'round', 'min', 'max', 'sum', '{a}', '{ b c }', 'constructor', ';', '\n']

  it('parses and evaluates thousands of random sources quickly, always to a value or an error', () => {
    const next = random(20261129)
    const started = performance.now()
    let values = 0
    let errors = 0
    for (let n = 0; n < 5000; n++) {
      const parts = Math.floor(next() * 60)
      let source = ''
      for (let k = 0; k < parts; k++) source += ALPHABET[Math.floor(next() * ALPHABET.length)]
      const parsed = parseFormula(source)
      if ('error' in parsed) {
        expect(typeof parsed.error).toBe('string')
        expect(parsed.at).toBeGreaterThanOrEqual(0)
        expect(parsed.at).toBeLessThanOrEqual(source.length)
        errors++
        continue
      }
      const result = evaluateFormula(parsed.expr, (label) => (label === 'x' ? { error: 'x fails' } : label.length - 1))
      if ('error' in result) {
        expect(result.error).toMatch(/\S/)
        errors++
      } else {
        expect(Number.isFinite(result.value)).toBe(true)
        expect(formatNumber(result.value)).not.toMatch(/e|NaN|Infinity/)
        values++
      }
    }
    expect(values).toBeGreaterThan(50)
    expect(errors).toBeGreaterThan(100)
    expect(performance.now() - started).toBeLessThan(5000)
  })

  it('decides and checks random field lists, cycles included, without throwing', () => {
    const next = random(7)
    const pick = <T,>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T
    const types = ['TEXT', 'NUMBER', 'CHECKBOX', 'RADIO', 'SIGNATURE']
    const tests: RuleTest[] = ['checked', 'unchecked', 'equals', 'notEquals', 'empty', 'notEmpty', 'greaterThan', 'lessThan', 'atLeast', 'atMost']
    const labels = ['A', 'B', 'C', 'D', 'E', '__proto__']
    for (let n = 0; n < 300; n++) {
      const fields: LogicField[] = labels.map((label, i) => ({
        id: i + 1, type: pick(types), label, required: next() < 0.5, options: ['1', '2'],
        condition: next() < 0.6 ? { effect: pick(['show', 'hide', 'require', 'optional'] as const), match: pick(['all', 'any'] as const), rules: [{ field: pick(labels), test: pick(tests), value: pick([undefined, '1', 2]) }] } : null,
        formula: next() < 0.5 ? `${pick(labels)} ${pick(['+', '/', '*'])} {${pick(labels)}}` : null,
      }))
      const values = new Map<number, FieldValue>(fields.map((f) => [f.id, pick([null, '1', '0', 'x', ['1'], ['1', '2']])]))
      const issues = checkFieldLogic(fields)
      const states = decideFields(fields, values)
      expect(states.size).toBe(fields.length)
      for (const state of states.values()) if (!state.visible) expect(state.required).toBe(false)
      expect(Array.isArray(issues)).toBe(true)
    }
  })
})
