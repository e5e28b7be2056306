/**
 * Rules and conditions: which tests fit which field types, and whether a rule holds for what
 * another field shows.
 */
import { isPlainRecord } from './labels.js'
import { parseNumber } from './numbers.js'
import { EFFECTS, MATCHES, MAX_RULES, RULE_TESTS, type Condition, type Rule, type RuleTest } from './types.js'

const CHOICE_TYPES: ReadonlySet<string> = new Set(['RADIO', 'DROPDOWN'])
const COMPARABLE_TYPES: ReadonlySet<string> = new Set(['TEXT', 'NUMBER', 'RADIO', 'DROPDOWN', 'CHECKBOX'])

export function isNumericTest(test: RuleTest): boolean {
  return test === 'greaterThan' || test === 'lessThan' || test === 'atLeast' || test === 'atMost'
}

/** Whether a test means something for a field of this type. */
export function testFits(test: RuleTest, type: string): boolean {
  switch (test) {
    case 'checked': case 'unchecked': return type === 'CHECKBOX'
    case 'equals': case 'notEquals': return COMPARABLE_TYPES.has(type)
    case 'empty': case 'notEmpty': return true
    default: return type === 'NUMBER'
  }
}

/** Whether the test takes a `value`: always, never, or optionally (checked: which option). */
export function valueNeed(test: RuleTest): 'required' | 'forbidden' | 'optional' {
  if (test === 'checked' || test === 'unchecked') return 'optional'
  if (test === 'empty' || test === 'notEmpty') return 'forbidden'
  return 'required'
}

/** Whether the field's value is compared against its options (RADIO, DROPDOWN, CHECKBOX). */
export function hasOptions(type: string): boolean {
  return CHOICE_TYPES.has(type) || type === 'CHECKBOX'
}

export function isRuleTest(value: unknown): value is RuleTest {
  return typeof value === 'string' && (RULE_TESTS as readonly string[]).includes(value)
}

/**
 * The condition when it is fully shaped, else null: decide ignores a malformed condition (check
 * reports it), so no input makes deciding throw.
 */
export function usableCondition(raw: unknown): Condition | null {
  if (!isPlainRecord(raw)) return null
  const { effect, match, rules } = raw
  if (!(EFFECTS as readonly unknown[]).includes(effect) || !(MATCHES as readonly unknown[]).includes(match)) return null
  if (!Array.isArray(rules) || rules.length === 0 || rules.length > MAX_RULES) return null
  const usable: Rule[] = []
  for (const rule of rules as unknown[]) {
    if (!isPlainRecord(rule)) return null
    const { field, test, value } = rule
    if (typeof field !== 'string' || !isRuleTest(test)) return null
    if (value !== undefined && typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value))) return null
    usable.push(value === undefined ? { field, test } : { field, test, value })
  }
  return { effect: effect as Condition['effect'], match: match as Condition['match'], rules: usable }
}

/** What a rule sees of the field it reads (empty when that field is hidden). */
export interface SeenField {
  type: string
  empty: boolean
  /** The trimmed text or chosen option; '' when empty or a CHECKBOX. */
  text: string
  /** CHECKBOX: the checked options; any other field: its text, when it has one. */
  checked: readonly string[]
  /** The field's number (a NUMBER's text or computed value), null when it holds none. */
  number: number | null
}

export const EMPTY_SEEN = (type: string): SeenField => ({ type, empty: true, text: '', checked: [], number: null })

function ruleNumber(value: string | number | undefined): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  return typeof value === 'string' ? parseNumber(value) : null
}

function equalsValue(seen: SeenField, value: string | number | undefined): boolean {
  if (value === undefined || seen.empty) return false
  if (seen.type === 'CHECKBOX') return seen.checked.includes(String(value))
  if (seen.type === 'NUMBER') {
    const wanted = ruleNumber(value)
    if (wanted === null || seen.number === null) return false
    return Math.abs(seen.number - wanted) <= 1e-9 * Math.max(1, Math.abs(wanted))
  }
  return seen.text === String(value).trim()
}

export function ruleHolds(rule: Rule, seen: SeenField): boolean {
  switch (rule.test) {
    case 'checked':
    case 'unchecked': {
      const on = rule.value === undefined ? seen.checked.length > 0 : seen.checked.includes(String(rule.value))
      return rule.test === 'checked' ? on : !on
    }
    case 'equals': return equalsValue(seen, rule.value)
    case 'notEquals': return !equalsValue(seen, rule.value)
    case 'empty': return seen.empty
    case 'notEmpty': return !seen.empty
    default: {
      // Numeric tests: an empty field, or one without a number, never matches.
      const wanted = ruleNumber(rule.value)
      const n = seen.number
      if (wanted === null || n === null) return false
      switch (rule.test) {
        case 'greaterThan': return n > wanted
        case 'lessThan': return n < wanted
        case 'atLeast': return n >= wanted
        case 'atMost': return n <= wanted
      }
    }
  }
}

export function conditionHolds(condition: Condition, seenOf: (rule: Rule) => SeenField): boolean {
  return condition.match === 'all'
    ? condition.rules.every((rule) => ruleHolds(rule, seenOf(rule)))
    : condition.rules.some((rule) => ruleHolds(rule, seenOf(rule)))
}
