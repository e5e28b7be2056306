/**
 * Conditional fields and formulas in the draft: the issues of the whole field list (the shared
 * check, as the server runs it on save), what a new rule starts as, and keeping rules and formulas
 * pointed at a field when its label changes. Pure: no DOM, no i18n.
 */
import {
  checkFieldLogic, logicFieldOf, parseFormula, testFits, valueNeed, EFFECTS, MATCHES, RULE_TESTS,
  type Condition, type Expr, type LogicIssue, type Rule, type RuleTest,
} from '../../../../shared/field-logic/index.js'

export type { Condition, Rule, RuleTest }

/** What the logic reads of a draft field (a structural part of DraftField). */
export interface LogicDraftField {
  key: string
  type: string
  page: number
  label: string
  required: boolean
  options: string[]
  condition?: Condition | undefined
  formula?: string | undefined
}

/** Whether an issue is on rule `n` (0-based) of the condition. */
export const onRule = (issue: DraftLogicIssue, n: number) => issue.path[0] === 'condition' && issue.path[1] === 'rules' && issue.path[2] === n

/** A logic issue of the draft, on the field it belongs to. */
export interface DraftLogicIssue {
  fieldKey: string
  path: LogicIssue['path']
  message: string
}

/** The field's logic as fieldMeta holds it: the keys only when there is something to keep. */
export function logicMeta(f: Pick<LogicDraftField, 'condition' | 'formula'>): { condition?: Condition; formula?: string } {
  return {
    ...(f.condition ? { condition: f.condition } : {}),
    ...(typeof f.formula === 'string' && f.formula.trim() !== '' ? { formula: f.formula.trim() } : {}),
  }
}

/** Every issue of the draft's conditions and formulas, in field order. */
export function logicIssues(fields: readonly LogicDraftField[]): DraftLogicIssue[] {
  if (!fields.some((f) => f.condition || (typeof f.formula === 'string' && f.formula.trim() !== ''))) return []
  const logic = fields.map((f, id) =>
    logicFieldOf({ id, type: f.type, fieldMeta: { label: f.label, required: f.required, options: f.options, ...logicMeta(f) } }),
  )
  return checkFieldLogic(logic).map((issue) => ({ fieldKey: fields[issue.fieldId]!.key, path: issue.path, message: issue.message }))
}

/** The other fields a rule of `self` may refer to: those with a label, each label once. */
export function referable(fields: readonly LogicDraftField[], self: string): { label: string; type: string; options: string[] }[] {
  const seen = new Set<string>()
  return fields.flatMap((f) => {
    const label = f.label.trim()
    if (f.key === self || !label || seen.has(label)) return []
    seen.add(label)
    return [{ label, type: f.type, options: f.options.filter((o) => o.trim()) }]
  })
}

/** The tests that mean something for a field of `type`. */
export const testsFor = (type: string): RuleTest[] => RULE_TESTS.filter((test) => testFits(test, type))

/** A rule on `other` as it starts: "is checked" for a checkbox, "is not empty" for the rest. */
export function newRule(other: { label: string; type: string }): Rule {
  return { field: other.label, test: other.type === 'CHECKBOX' ? 'checked' : 'notEmpty' }
}

/**
 * The rule with another field or test: the test kept when it still fits, the value kept when the
 * test still takes one (and, for a field with options, when it is one of them).
 */
export function adjustRule(rule: Rule, other: { type: string; options: string[] } | undefined, patch: Partial<Rule>): Rule {
  const next: Rule = { ...rule, ...patch }
  if (other && !testFits(next.test, other.type)) next.test = other.type === 'CHECKBOX' ? 'checked' : 'notEmpty'
  if (next.value === undefined) delete next.value
  const need = valueNeed(next.test)
  const choices = other && ['RADIO', 'DROPDOWN', 'CHECKBOX'].includes(other.type) ? other.options : null
  if (need === 'forbidden' || (choices && next.value !== undefined && !choices.includes(String(next.value)))) delete next.value
  if (need === 'required' && next.value === undefined) next.value = choices?.[0] ?? ''
  return next
}

/** Where a formula refers to `label`: the character each reference starts at. */
function referencesAt(expr: Expr, label: string, into: number[] = []): number[] {
  switch (expr.kind) {
    case 'ref': if (expr.label === label) into.push(expr.at); break
    case 'negate': referencesAt(expr.operand, label, into); break
    case 'binary': referencesAt(expr.left, label, into); referencesAt(expr.right, label, into); break
    case 'call': for (const arg of expr.args) referencesAt(arg, label, into); break
  }
  return into
}

/** The formula with its references to `from` made references to `to` (in braces); as it was when it does not parse. */
export function renameInFormula(formula: string, from: string, to: string): string {
  const parsed = parseFormula(formula)
  if ('error' in parsed || /[{}]/.test(to)) return formula
  let out = formula
  for (const at of referencesAt(parsed.expr, from).sort((a, b) => b - a)) {
    const end = out.charAt(at) === '{' ? out.indexOf('}', at) + 1 : at + from.length
    out = `${out.slice(0, at)}{${to}}${out.slice(end)}`
  }
  return out
}

/**
 * The fields after field `key` was relabelled from `before` to `after`: the rules and formulas of
 * the other fields that named it name it anew. Only a label no other field carries is followed
 * (a shared label names no field), and only to a label that is not empty.
 */
export function followRename<F extends LogicDraftField>(fields: readonly F[], key: string, before: string, after: string): F[] {
  const from = before.trim()
  const to = after.trim()
  if (!from || !to || from === to || fields.some((f) => f.key !== key && f.label.trim() === from)) return [...fields]
  return fields.map((f) => {
    if (f.key === key) return f
    const rules = f.condition && Array.isArray(f.condition.rules) ? f.condition.rules : null
    const renamed = rules?.some((r) => typeof r?.field === 'string' && r.field.trim() === from)
    const formula = typeof f.formula === 'string' ? renameInFormula(f.formula, from, to) : f.formula
    if (!renamed && formula === f.formula) return f
    const condition = renamed && f.condition
      ? { ...f.condition, rules: rules!.map((r) => (typeof r?.field === 'string' && r.field.trim() === from ? { ...r, field: to } : r)) }
      : f.condition
    return { ...f, condition, formula }
  })
}

/** Whether a stored condition has the shape the inspector edits (the check names what is wrong otherwise). */
export function editableCondition(c: unknown): c is Condition {
  if (!c || typeof c !== 'object' || Array.isArray(c)) return false
  const { effect, match, rules } = c as Record<string, unknown>
  return (EFFECTS as readonly unknown[]).includes(effect) && (MATCHES as readonly unknown[]).includes(match) &&
    Array.isArray(rules) && rules.every((r) => r && typeof r === 'object' && !Array.isArray(r))
}
