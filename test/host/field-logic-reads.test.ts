/**
 * What a signing page must know of other recipients' fields (host/shared/field-logic/reads.ts):
 * the fields its own fields' conditions and formulas read, transitively, and nothing else.
 */
import { describe, expect, it } from 'vitest'
import { fieldsRead, labelsRead, type Condition, type LogicField } from '../../host/shared/field-logic/index.js'

let nextId = 1
function field(type: string, label: string | null, extra: Partial<LogicField> = {}): LogicField {
  return { id: nextId++, type, label, required: false, ...extra }
}
const show = (...labels: string[]): Condition => ({ effect: 'show', match: 'any', rules: labels.map((l) => ({ field: l, test: 'notEmpty' })) })

describe('labelsRead', () => {
  it('lists the labels of the rules and of a NUMBER formula', () => {
    expect(labelsRead(field('NUMBER', 'Total', { formula: '{Quantity} * {Price} + {Quantity}', condition: show('Show total') }))).toEqual(['Show total', 'Quantity', 'Price'])
  })
  it('reads no formula outside NUMBER, and nothing from a malformed condition or formula', () => {
    expect(labelsRead(field('TEXT', 'T', { formula: '{A}' }))).toEqual([])
    expect(labelsRead(field('NUMBER', 'N', { formula: '{A' }))).toEqual([])
    expect(labelsRead(field('TEXT', 'T', { condition: { effect: 'show', match: 'all', rules: 'A' } as unknown as Condition }))).toEqual([])
    expect(labelsRead(field('NUMBER', 'N', { formula: '   ' }))).toEqual([])
  })
})

describe('fieldsRead', () => {
  it('follows conditions and formulas through other fields, in the list order, without the start fields', () => {
    const a = field('CHECKBOX', 'A')
    const b = field('NUMBER', 'B', { formula: '{C} + 1' })
    const c = field('NUMBER', 'C', { condition: show('A') })
    const unrelated = field('TEXT', 'Secret')
    const own = field('TEXT', 'Mine', { condition: show('B') })
    const all = [a, b, c, unrelated, own]
    expect(fieldsRead(all, [own.id])).toEqual([a.id, b.id, c.id])
  })

  it('is empty without logic, and for unknown labels or ids', () => {
    const a = field('TEXT', 'A')
    const own = field('TEXT', 'Mine', { condition: show('Nobody') })
    expect(fieldsRead([a, own], [own.id])).toEqual([])
    expect(fieldsRead([a], [a.id])).toEqual([])
    expect(fieldsRead([a], [9999])).toEqual([])
  })

  it('does not list a start field another start field reads', () => {
    const mine1 = field('CHECKBOX', 'Mine 1')
    const mine2 = field('TEXT', 'Mine 2', { condition: show('Mine 1', 'Theirs') })
    const theirs = field('TEXT', 'Theirs')
    expect(fieldsRead([mine1, mine2, theirs], [mine1.id, mine2.id])).toEqual([theirs.id])
  })

  it('ends on cycles', () => {
    const x = field('NUMBER', 'X', { formula: '{Y}' })
    const y = field('NUMBER', 'Y', { formula: '{X}' })
    const own = field('NUMBER', 'Own', { formula: '{X} * 2' })
    expect(fieldsRead([x, y, own], [own.id])).toEqual([x.id, y.id])
  })

  it('brings every bearer of an ambiguous label but follows none of them', () => {
    const deep = field('TEXT', 'Deep')
    const d1 = field('TEXT', 'Dup', { condition: show('Deep') })
    const d2 = field('TEXT', ' Dup ')
    const own = field('TEXT', 'Mine', { condition: show('Dup') })
    expect(fieldsRead([deep, d1, d2, own], [own.id])).toEqual([d1.id, d2.id])
  })

  it('matches labels trimmed and case-sensitively', () => {
    const a = field('TEXT', '  Company ')
    const b = field('TEXT', 'company')
    const own = field('TEXT', 'Mine', { condition: show(' Company') })
    expect(fieldsRead([a, b, own], [own.id])).toEqual([a.id])
  })
})
