/**
 * Send to many: which column of the chosen table (its columns as the host read them) gives what,
 * suggested from the columns' names and changed by the person.
 */
import type { Field } from '../../../../../src/protocol/index.js'
import { prefillable } from './PrefillFields.js'
import type { Envelope } from './types.js'

/** What a table may be: CSV or an XLSX workbook (by name, or by type when the name says nothing). */
export const TABLE_NAME = /\.(csv|xlsx)$/i
export const TABLE_TYPES = ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']

/** Which column gives what; '' is "none". By recipient id and by field id. */
export interface Mapping {
  recipients: Record<number, { email: string; name: string }>
  prefill: Record<number, string>
  title: string
}

/** A table's columns as the host reads it (CSV or XLSX), before any mapping. */
export interface BulkTableAnswer {
  columns: string[]
  format: 'csv' | 'xlsx'
  encoding: 'utf-8' | 'windows-1252'
  total: number
}

/** Why the host would refuse a row: a code, what it names, and the host's English sentence. */
export type RowProblem = { code: string; message: string; column?: string; value?: string; row?: number }

/** The host's preview of a bulk send (dryRun): nothing sent yet. */
export interface BulkPreviewAnswer {
  columns: string[]
  format: 'csv' | 'xlsx'
  encoding: 'utf-8' | 'windows-1252'
  total: number
  sendable: number
  allowed: number
  rows: { row: number; recipients?: { id: number; email: string; name?: string }[]; problems: RowProblem[] }[]
  problems: { row: number; problems: RowProblem[] }[]
}

/** A bulk send under way or done. */
export interface BulkStatus {
  id: string
  status: 'RUNNING' | 'DONE'
  total: number
  sent: number
  refused: number
  pending: number
}

/** The template's roles: its recipients without an address, each needing a column of addresses. */
export const rolesOf = (template: Envelope) => template.recipients.filter((r) => !r.email)

const metaLabel = (f: Field) => {
  const label = (f.fieldMeta as { label?: unknown } | null)?.label
  return typeof label === 'string' ? label.trim() : ''
}

/**
 * The mapping the columns' names suggest (case-insensitive): a column naming the role and "mail" is
 * its address, one naming the role and "name" its name; a column equal to a field's label fills
 * that field; "title" the title.
 */
export function suggestMapping(template: Envelope & { fields?: Field[] }, columns: string[]): Mapping {
  const low = columns.map((c) => ({ column: c, low: c.toLowerCase() }))
  const find = (test: (c: string) => boolean) => low.find((c) => test(c.low))?.column ?? ''
  const recipients = Object.fromEntries(
    rolesOf(template).map((r) => {
      const role = r.name.trim().toLowerCase()
      return [r.id, { email: find((c) => c.includes(role) && c.includes('mail')), name: find((c) => c.includes(role) && c.includes('name') && !c.includes('mail')) }]
    }),
  )
  const prefill = Object.fromEntries(prefillable(template.fields ?? []).map((f) => [f.id, metaLabel(f) ? find((c) => c.trim() === metaLabel(f).toLowerCase()) : '']))
  return { recipients, prefill, title: find((c) => c.trim() === 'title') }
}

/** The mapping as the host takes it: only what was chosen. */
export function mappingPayload(m: Mapping) {
  return {
    recipients: Object.entries(m.recipients).map(([id, c]) => ({ recipientId: Number(id), email: c.email, ...(c.name ? { name: c.name } : {}) })),
    prefill: Object.entries(m.prefill).flatMap(([id, column]) => (column ? [{ fieldId: Number(id), column }] : [])),
    ...(m.title ? { title: m.title } : {}),
  }
}

/** A field's name in the mapping: its label, else its kind and number. */
export const fieldLabel = (f: Field, fallback: string) => metaLabel(f) || fallback
