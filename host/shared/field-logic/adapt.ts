/**
 * A field as the API, the pages and the database hold it (`type`, `fieldMeta`, its stored text),
 * read as the logic takes it: one reading for the editor, the signing pages and the server.
 */
import { readLogic } from './check.js'
import type { FieldValue, LogicField } from './types.js'

/** Types a recipient must always fill; the others only when their fieldMeta says `required: true`. */
export const ALWAYS_REQUIRED: readonly string[] = ['SIGNATURE', 'FREE_SIGNATURE', 'INITIALS', 'NAME', 'EMAIL', 'DATE']

const record = (meta: unknown): Record<string, unknown> => (meta && typeof meta === 'object' && !Array.isArray(meta) ? (meta as Record<string, unknown>) : {})

/** Whether a field must be filled before any condition is applied. */
export const baseRequired = (type: string, fieldMeta: unknown): boolean => ALWAYS_REQUIRED.includes(type) || record(fieldMeta).required === true

/** The field as the logic reads it. */
export function logicFieldOf(f: { id: number; type: string; fieldMeta: unknown }): LogicField {
  const meta = record(f.fieldMeta)
  const options = Array.isArray(meta.options) ? meta.options.filter((o): o is string => typeof o === 'string') : undefined
  return {
    id: f.id,
    type: f.type,
    label: typeof meta.label === 'string' ? meta.label : null,
    required: baseRequired(f.type, meta),
    ...(options ? { options } : {}),
    ...readLogic(meta),
  }
}

/** A stored or typed text as the logic reads it: a CHECKBOX's is the JSON array of its checked options. */
export function fieldValueOf(type: string, text: string | null | undefined): FieldValue {
  if (text === null || text === undefined || text === '') return null
  if (type !== 'CHECKBOX') return text
  try {
    const parsed: unknown = JSON.parse(text)
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : null
  } catch {
    return null
  }
}

/** Whether any field of the list has a condition or a formula (most envelopes have none). */
export const hasLogic = (fields: readonly { fieldMeta: unknown }[]): boolean =>
  fields.some((f) => {
    const logic = readLogic(f.fieldMeta)
    return logic.condition !== undefined || (typeof logic.formula === 'string' ? logic.formula.trim() !== '' : logic.formula !== undefined)
  })
