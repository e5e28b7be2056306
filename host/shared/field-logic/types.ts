/**
 * The shapes conditional fields and formulas are written in: what a field's `fieldMeta` may carry
 * (`condition`, `formula`) and what the logic reads and decides. Shared by the signing pages and the
 * server, so nothing here may depend on Node or the DOM.
 */

export type RuleTest =
  | 'checked' | 'unchecked' | 'equals' | 'notEquals' | 'empty' | 'notEmpty'
  | 'greaterThan' | 'lessThan' | 'atLeast' | 'atMost'

export interface Rule {
  /** The other field's label (trimmed, case-sensitive). */
  field: string
  test: RuleTest
  value?: string | number
}

export interface Condition {
  effect: 'show' | 'hide' | 'require' | 'optional'
  match: 'all' | 'any'
  rules: Rule[]
}

export interface LogicField {
  id: number
  /** 'TEXT', 'NUMBER', 'CHECKBOX', 'RADIO', 'DROPDOWN', 'SIGNATURE', 'NAME', 'EMAIL', 'DATE', 'INITIALS', 'FREE_SIGNATURE' */
  type: string
  label?: string | null
  /** Its base required flag, before any condition. */
  required: boolean
  options?: string[]
  condition?: Condition | null
  formula?: string | null
}

/** Text and number fields: their text; CHECKBOX: the checked options; RADIO/DROPDOWN: the chosen one. */
export type FieldValue = string | string[] | null

export type FieldValues = ReadonlyMap<number, FieldValue>

export interface FieldState {
  visible: boolean
  required: boolean
  /** Only for fields with a formula; what `values` holds for them is ignored. */
  computed?: { value: string } | { error: string }
}

export interface LogicIssue {
  fieldId: number
  /** Within the field's `fieldMeta`, e.g. ['condition', 'rules', 2, 'field'] or ['formula']. */
  path: (string | number)[]
  message: string
}

export const RULE_TESTS: readonly RuleTest[] = [
  'checked', 'unchecked', 'equals', 'notEquals', 'empty', 'notEmpty', 'greaterThan', 'lessThan', 'atLeast', 'atMost',
]
export const EFFECTS: readonly Condition['effect'][] = ['show', 'hide', 'require', 'optional']
export const MATCHES: readonly Condition['match'][] = ['all', 'any']

/** At most this many rules in one condition: enough for a form, small enough to read. */
export const MAX_RULES = 20
