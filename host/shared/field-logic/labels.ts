/**
 * Finding fields by label. Labels are user text, so they key `Map`s only: "__proto__" or
 * "constructor" are labels like any other.
 */
import type { LogicField } from './types.js'

/** A field's label as references match it: trimmed, case-sensitive; none when empty. */
export function labelOf(field: LogicField): string | null {
  const label = typeof field.label === 'string' ? field.label.trim() : ''
  return label === '' ? null : label
}

/** Every label and the positions (in the field list) of the fields that carry it. */
export function indexLabels(fields: readonly LogicField[]): Map<string, number[]> {
  const byLabel = new Map<string, number[]>()
  fields.forEach((field, i) => {
    const label = labelOf(field)
    if (label === null) return
    const list = byLabel.get(label)
    if (list) list.push(i)
    else byLabel.set(label, [i])
  })
  return byLabel
}

export type Resolved = { index: number } | { missing: true } | { ambiguous: number[] }

export function resolveLabel(byLabel: ReadonlyMap<string, number[]>, label: string): Resolved {
  const found = byLabel.get(label.trim())
  if (found === undefined || found.length === 0) return { missing: true }
  if (found.length > 1) return { ambiguous: found }
  return { index: found[0] as number }
}

export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
