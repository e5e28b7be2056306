/**
 * The editor's draft of conditions and formulas (host/app/src/editor/draft/logic.ts): what is saved
 * in fieldMeta, a new label followed by the rules and formulas that named the old one, rules kept
 * consistent with the field they read.
 */
import { describe, expect, it } from 'vitest'
import { adjustRule, followRename, logicIssues, renameInFormula } from '../../host/app/src/editor/draft/logic.js'
import { logicMessage } from '../../host/app/src/editor/logicWords.js'
import { fieldMeta, makeField, updateField, type Draft, type DraftField } from '../../host/app/src/editor/draft/model.js'

const field = (type: DraftField['type'], label: string, more: Partial<DraftField> = {}): DraftField => ({
  ...makeField({ type: type as never, itemKey: 'i1', recipientKey: 'r1', page: 1, cx: 50, cy: 50 }),
  label,
  ...more,
})

describe('the draft of conditions and formulas', () => {
  it('saves condition and formula only when there are some, the formula trimmed', () => {
    expect(fieldMeta(field('NUMBER', 'Total'))).not.toHaveProperty('formula')
    expect(fieldMeta(field('NUMBER', 'Total', { formula: '  ' }))).not.toHaveProperty('formula')
    expect(fieldMeta(field('NUMBER', 'Total', { formula: ' {A} * 2 ' })).formula).toBe('{A} * 2')
    const condition = { effect: 'show' as const, match: 'all' as const, rules: [{ field: 'A', test: 'checked' as const }] }
    expect(fieldMeta(field('TEXT', 'B', { condition }))).toMatchObject({ condition })
    expect(fieldMeta(field('TEXT', 'B'))).not.toHaveProperty('condition')
  })

  it('renames braced and bare references in a formula, leaving others and unparsable formulas alone', () => {
    expect(renameInFormula('{Qty} * qty + round(Qty, 2)', 'Qty', 'Quantity')).toBe('{Quantity} * qty + round({Quantity}, 2)')
    expect(renameInFormula('{ Qty } * 2', 'Qty', 'Unit count')).toBe('{Unit count} * 2')
    expect(renameInFormula('{Qty} *', 'Qty', 'Quantity')).toBe('{Qty} *')
  })

  it('follows a relabelled field in the other fields, unless the old label was shared or the new one is empty', () => {
    const a = field('CHECKBOX', 'Company')
    const b = field('TEXT', 'Name', { condition: { effect: 'show', match: 'any', rules: [{ field: 'Company', test: 'checked' }, { field: 'Other', test: 'empty' }] } })
    const c = field('NUMBER', 'Total', { formula: '{Company} * 2' })
    const draft = { fields: [a, b, c] } as Draft
    const next = updateField(draft, a.key, { label: 'For a company' }).fields
    expect(next[1]!.condition!.rules).toEqual([{ field: 'For a company', test: 'checked' }, { field: 'Other', test: 'empty' }])
    expect(next[2]!.formula).toBe('{For a company} * 2')
    expect(updateField(draft, a.key, { label: '' }).fields[1]).toBe(b)
    const shared = { fields: [a, b, c, field('TEXT', 'Company')] } as Draft
    expect(updateField(shared, a.key, { label: 'X' }).fields[1]).toBe(b)
    expect(followRename([a, b], a.key, 'Company', 'Company')).toEqual([a, b])
  })

  it('keeps a rule consistent with the field it reads', () => {
    const radio = { type: 'RADIO', options: ['Small', 'Large'] }
    expect(adjustRule({ field: 'A', test: 'checked' }, radio, { field: 'Size' })).toEqual({ field: 'Size', test: 'notEmpty' })
    expect(adjustRule({ field: 'Size', test: 'notEmpty' }, radio, { test: 'equals' })).toEqual({ field: 'Size', test: 'equals', value: 'Small' })
    expect(adjustRule({ field: 'Size', test: 'equals', value: 'Large' }, radio, { test: 'empty' })).toEqual({ field: 'Size', test: 'empty' })
    expect(adjustRule({ field: 'Box', test: 'checked', value: 'x' }, { type: 'CHECKBOX', options: ['x'] }, { value: undefined })).toEqual({ field: 'Box', test: 'checked' })
  })

  it('finds the issues of the whole draft, on the field that has them', () => {
    const b = field('TEXT', 'Name', { condition: { effect: 'show', match: 'all', rules: [{ field: 'Gone', test: 'notEmpty' }] } })
    expect(logicIssues([field('TEXT', 'A'), b])).toEqual([{ fieldKey: b.key, path: ['condition', 'rules', 0, 'field'], message: 'No field is labelled "Gone"' }])
    expect(logicIssues([field('TEXT', 'A')])).toEqual([])
  })

  it('says the usual messages of the check and the parser through the dictionary, the same in English, others as they are', () => {
    for (const message of [
      'No field is labelled "Note"',
      '2 fields are labelled "Price": give them different labels',
      'Circular reference: "A" → "B" → "A"',
      '"Huge" is not one of the options of "Size"',
      'The formula ends too early (at character 13)',
      'Unexpected ")" (at character 4)',
      'Unknown function "avg"',
      'The formula nests deeper than 32 levels',
    ]) expect(logicMessage(message)).toBe(message)
    expect(logicMessage('The test "greaterThan" compares numbers: "abc" is not a number')).toBe('"abc" is not a number')
  })
})
