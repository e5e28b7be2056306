/**
 * Which other fields a set of fields reads through its conditions and formulas, transitively: what
 * a signing page must know of other recipients' fields to decide its own, and nothing more.
 */
import { usableCondition } from './conditions.js'
import { hasFormula } from './decide.js'
import { parseFormula } from './formula.js'
import { indexLabels } from './labels.js'
import type { LogicField } from './types.js'

/** The labels one field's condition and formula refer to. */
export function labelsRead(field: LogicField): string[] {
  const labels = usableCondition(field.condition)?.rules.map((rule) => rule.field) ?? []
  if (field.type === 'NUMBER' && hasFormula(field) && typeof field.formula === 'string') {
    const parsed = parseFormula(field.formula)
    if ('references' in parsed) labels.push(...parsed.references)
  }
  return labels
}

/**
 * The ids of the fields of `all` that the fields with the ids in `from` read, directly or through
 * other fields' conditions and formulas, in the order of `all`; the `from` fields themselves are
 * not listed. A label several fields carry brings all of them (so that a reader sees it is
 * ambiguous, as the server does), but is not followed further.
 */
export function fieldsRead(all: readonly LogicField[], from: Iterable<number>): number[] {
  const byLabel = indexLabels(all)
  const byId = new Map(all.map((f) => [f.id, f]))
  const start = new Set(from)
  const reached = new Set<number>()
  const queue = [...start].flatMap((id) => byId.get(id) ?? [])
  for (let k = 0; k < queue.length; k++) {
    for (const label of labelsRead(queue[k] as LogicField)) {
      const bearers = byLabel.get(label.trim()) ?? []
      for (const i of bearers) {
        const other = all[i] as LogicField
        if (start.has(other.id) || reached.has(other.id)) continue
        reached.add(other.id)
        if (bearers.length === 1) queue.push(other)
      }
    }
  }
  return all.filter((f) => reached.has(f.id)).map((f) => f.id)
}
