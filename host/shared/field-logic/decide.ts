/**
 * Decides, for the values a signer has entered, which fields are visible, which are required and
 * what each formula computes. Fields are decided in dependency order, so that visibility chains and
 * hidden fields read as empty by everything after them.
 */
import { conditionHolds, EMPTY_SEEN, usableCondition, type SeenField } from './conditions.js'
import { evaluateFormula, parseFormula, type FormulaError, type ParsedFormula } from './formula.js'
import { indexLabels, isPlainRecord, resolveLabel } from './labels.js'
import { formatNumber, parseNumber } from './numbers.js'
import type { Condition, FieldState, FieldValue, FieldValues, LogicField } from './types.js'

/** A formula that is blank counts as none: clearing the box in the editor removes it. */
export function hasFormula(field: LogicField): boolean {
  const formula: unknown = field.formula
  return formula !== undefined && formula !== null && !(typeof formula === 'string' && formula.trim() === '')
}

function seenOfValue(type: string, raw: FieldValue | undefined): SeenField {
  if (type === 'CHECKBOX') {
    const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : []
    const checked = [...new Set(list.filter((v): v is string => typeof v === 'string' && v.trim() !== ''))]
    return { type, empty: checked.length === 0, text: '', checked, number: null }
  }
  const single: unknown = Array.isArray(raw) && raw.length === 1 ? raw[0] : raw
  const text = typeof single === 'string' ? single.trim() : ''
  if (text === '') return EMPTY_SEEN(type)
  return { type, empty: false, text, checked: [text], number: parseNumber(text) }
}

interface Plan {
  condition: Condition | null
  formula: ParsedFormula | FormulaError | null
  dependsOn: number[]
}

export function decideFields(fields: readonly LogicField[], values: FieldValues): Map<number, FieldState> {
  // Defensive about shapes the types already promise: deciding must not throw on any input.
  const list: LogicField[] = Array.isArray(fields) ? fields.filter((f): f is LogicField => isPlainRecord(f)) : []
  const valueOf = (id: number): FieldValue | undefined => (typeof values?.get === 'function' ? values.get(id) : undefined)
  const byLabel = indexLabels(list)
  const indexOf = (label: string): number | null => {
    const found = resolveLabel(byLabel, label)
    return 'index' in found ? found.index : null
  }

  const plans: Plan[] = list.map((field) => {
    const condition = usableCondition(field.condition)
    // Only NUMBER fields compute; check reports a formula anywhere else.
    const formula = field.type === 'NUMBER' && hasFormula(field)
      ? typeof field.formula === 'string' ? parseFormula(field.formula) : { error: 'The formula must be text', at: 0 }
      : null
    const labels = [...(condition?.rules.map((rule) => rule.field) ?? []), ...(formula && 'references' in formula ? formula.references : [])]
    const dependsOn = [...new Set(labels.map(indexOf).filter((i): i is number => i !== null))]
    return { condition, formula, dependsOn }
  })

  // Kahn's algorithm: a field is decided once everything it reads is. What is left over sits on or
  // behind a cycle (check rejects those); it is decided afterwards, reading undecided fields as empty.
  const waiting = plans.map((plan) => plan.dependsOn.length)
  const readers: number[][] = list.map(() => [])
  plans.forEach((plan, i) => plan.dependsOn.forEach((j) => readers[j]?.push(i)))
  const order: number[] = []
  waiting.forEach((count, i) => { if (count === 0) order.push(i) })
  for (let k = 0; k < order.length; k++) {
    for (const reader of readers[order[k] as number] ?? []) {
      const left = (waiting[reader] ?? 0) - 1
      waiting[reader] = left
      if (left === 0) order.push(reader)
    }
  }
  const placed = new Set(order)
  list.forEach((_, i) => { if (!placed.has(i)) order.push(i) })

  const states: (FieldState | undefined)[] = list.map(() => undefined)
  const computedNumbers: (number | undefined)[] = list.map(() => undefined)

  // What field j shows to the rules and formulas that read it.
  const seen = (j: number): SeenField => {
    const field = list[j] as LogicField
    const state = states[j]
    if (state === undefined || !state.visible) return EMPTY_SEEN(field.type)
    if (plans[j]?.formula) {
      // A formula that failed gives rules nothing to compare: it reads as empty.
      const n = computedNumbers[j]
      if (n === undefined) return EMPTY_SEEN(field.type)
      const text = formatNumber(n)
      return { type: field.type, empty: false, text, checked: [text], number: n }
    }
    return seenOfValue(field.type, valueOf(field.id))
  }

  for (const i of order) {
    const field = list[i] as LogicField
    const plan = plans[i] as Plan
    const holds = plan.condition !== null && conditionHolds(plan.condition, (rule) => {
      const j = indexOf(rule.field)
      return j === null ? EMPTY_SEEN('') : seen(j)
    })
    const effect = plan.condition?.effect
    const visible = effect === 'show' ? holds : effect === 'hide' ? !holds : true
    const required = !visible ? false
      : effect === 'require' && holds ? true
        : effect === 'optional' && holds ? false
          : field.required === true
    const state: FieldState = { visible, required }

    if (plan.formula) {
      if ('error' in plan.formula) {
        state.computed = { error: `${plan.formula.error} (at character ${plan.formula.at + 1})` }
      } else {
        const result = evaluateFormula(plan.formula.expr, (label) => {
          const found = resolveLabel(byLabel, label)
          if ('missing' in found) return { error: `No field is labelled "${label}"` }
          if ('ambiguous' in found) return { error: `More than one field is labelled "${label}"` }
          const j = found.index
          if (states[j] === undefined) return { error: `"${label}" refers back to this field` }
          const other = list[j] as LogicField
          const shown = seen(j)
          if (states[j]?.visible && plans[j]?.formula && computedNumbers[j] === undefined) {
            return { error: `"${label}" could not be computed` }
          }
          if (shown.empty) return 0
          if (other.type === 'CHECKBOX') return shown.checked.length
          return shown.number ?? { error: `"${label}" is not a number` }
        })
        if ('error' in result) {
          state.computed = { error: result.error }
        } else {
          // Readers use the canonical value, exactly as the page shows it.
          const text = formatNumber(result.value)
          computedNumbers[i] = parseNumber(text) ?? result.value
          state.computed = { value: text }
        }
      }
    }
    states[i] = state
  }

  const decided = new Map<number, FieldState>()
  list.forEach((field, i) => decided.set(field.id, states[i] as FieldState))
  return decided
}
