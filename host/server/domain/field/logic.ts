/**
 * Conditional fields and formulas on the server (the rules: host/shared/field-logic): an envelope's
 * conditions and formulas checked whenever its fields change, by every door (editEnvelope and
 * createEnvelope call checkLogic); and what a recipient submits at complete held to what the
 * server decides from the stored and submitted values, so a page edited by its signer cannot skip
 * a required field or forge a total.
 */
import { checkFieldLogic, decideFields, fieldValueOf, hasLogic, logicFieldOf, sameNumber, type FieldState, type FieldValue } from '../../../shared/field-logic/index.js'
import type { Queryable } from '../../db/index.js'
import { badRequest, issue, type ApiIssue } from '../../errors.js'
import type { FieldRow } from '../common/rows.js'

type Path = (string | number)[]

/** A field as the check reads it: an id (a stored one, or any number for fields not yet written), its type and fieldMeta. */
export interface CheckedField {
  id: number
  type: string
  fieldMeta: unknown
}

const labelOf = (f: CheckedField) => {
  const label = (f.fieldMeta as { label?: unknown } | null)?.label
  return typeof label === 'string' && label.trim() ? `"${label.trim()}"` : `${f.type.toLowerCase()} field`
}

/**
 * 400 naming each problem of the fields' conditions and formulas (a missing or ambiguous label, a
 * cycle, a formula that does not parse or passes the caps); `pathOf` gives a field's place in the
 * request, else the issue names the field by id.
 */
export function checkLogic(fields: readonly CheckedField[], pathOf: (id: number) => Path | undefined = () => undefined): void {
  if (!hasLogic(fields)) return
  const byId = new Map(fields.map((f) => [f.id, f]))
  const issues: ApiIssue[] = checkFieldLogic(fields.map(logicFieldOf)).map((i) => {
    const field = byId.get(i.fieldId)!
    const at = pathOf(i.fieldId)
    return issue([...(at ?? ['fields', i.fieldId]), 'fieldMeta', ...i.path], at ? i.message : `Field ${i.fieldId} (${labelOf(field)}): ${i.message}`)
  })
  if (issues.length) throw badRequest(`the fields' conditions or formulas do not hold: ${issues[0]!.message}`, issues)
}

/** checkLogic over an envelope's stored fields, after an edit (the edit's transaction rolls back on 400). */
export async function checkStoredLogic(tx: Queryable, envelopeId: string, pathOf?: (id: number) => Path | undefined): Promise<void> {
  const rows = await tx.query<FieldRow>('select id, type, field_meta from fields where envelope_id = $1 order by id', [envelopeId])
  checkLogic(
    rows.map((r) => ({ id: r.id, type: r.type, fieldMeta: r.field_meta })),
    pathOf,
  )
}

/** What the server decides for every field of an envelope from these values; null when no field has logic. */
export function decideStored(fields: readonly FieldRow[], values: ReadonlyMap<number, FieldValue>): Map<number, FieldState> | null {
  const checked = fields.map((f) => ({ id: f.id, type: f.type, fieldMeta: f.field_meta }))
  if (!hasLogic(checked)) return null
  return decideFields(checked.map(logicFieldOf), values)
}

/** The values the logic reads from stored fields: what earlier signers filled and what was filled in ahead. */
export function storedValues(fields: readonly FieldRow[]): Map<number, FieldValue> {
  const values = new Map<number, FieldValue>()
  for (const f of fields) if (f.inserted) values.set(f.id, fieldValueOf(f.type, f.custom_text))
  return values
}

/**
 * A recipient's submission held to the server's decision: a value in a hidden field, a computed
 * value other than the server's, a computed field that cannot be computed; the values to store
 * (computed ones as the server computed them, hidden ones dropped) and the fields required now.
 * `submitted` are the recipient's values as they would be stored, by field id; `paths` where each
 * came in the request.
 */
export function holdToLogic(
  all: readonly FieldRow[],
  own: readonly FieldRow[],
  submitted: Map<number, string>,
  paths: Map<number, Path>,
): { values: Map<number, string>; shown: (f: FieldRow) => boolean; required: (f: FieldRow) => boolean; issues: ApiIssue[] } | null {
  const values = storedValues(all)
  for (const f of own) if (submitted.has(f.id)) values.set(f.id, fieldValueOf(f.type, submitted.get(f.id)))
  const states = decideStored(all, values)
  if (!states) return null
  const issues: ApiIssue[] = []
  const kept = new Map<number, string>()
  const name = (f: FieldRow) => labelOf({ id: f.id, type: f.type, fieldMeta: f.field_meta })
  for (const f of own) {
    const state = states.get(f.id)!
    const given = submitted.get(f.id)
    const at = paths.get(f.id) ?? ['fields']
    if (!state.visible) {
      if (given !== undefined) issues.push(issue(at, `Field ${f.id} (${name(f)}) is hidden by its condition: it takes no value`))
      continue
    }
    if (state.computed) {
      if ('error' in state.computed) {
        if (state.required) issues.push(issue(at, `Field ${f.id} (${name(f)}) cannot be computed: ${state.computed.error}`))
        continue
      }
      if (given !== undefined && !sameNumber(given, state.computed.value)) {
        issues.push(issue(at, `Field ${f.id} (${name(f)}) is computed: its value is ${state.computed.value}, not ${given}`))
      }
      kept.set(f.id, state.computed.value)
      continue
    }
    if (given !== undefined) kept.set(f.id, given)
  }
  return { values: kept, shown: (f) => states.get(f.id)?.visible ?? true, required: (f) => states.get(f.id)?.required ?? false, issues }
}

/** The fields the sealed file shows: those the final values leave visible (a hidden field's value, if any, is not stamped). */
export function visibleAtSeal(fields: FieldRow[]): FieldRow[] {
  const states = decideStored(fields, storedValues(fields))
  return states ? fields.filter((f) => states.get(f.id)?.visible !== false) : fields
}
