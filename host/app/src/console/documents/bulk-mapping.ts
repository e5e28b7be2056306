/**
 * Send to many: the columns of the chosen table, read in the browser from its first line only to
 * offer them (the host reads the whole table and its preview is the truth), and which column gives
 * what, suggested from the columns' names and changed by the person.
 */
import type { Field } from '../../../../../src/protocol/index.js'
import { prefillable } from './PrefillFields.js'
import type { Envelope } from './types.js'

/** Which column gives what; '' is "none". By recipient id and by field id. */
export interface Mapping {
  recipients: Record<number, { email: string; name: string }>
  prefill: Record<number, string>
  title: string
}

/** The host's preview of a bulk send (dryRun): nothing sent yet. */
export interface BulkPreviewAnswer {
  columns: string[]
  encoding: 'utf-8' | 'windows-1252'
  total: number
  sendable: number
  allowed: number
  rows: { row: number; recipients?: { id: number; email: string; name?: string }[]; problems: string[] }[]
  problems: { row: number; problems: string[] }[]
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

/** The bytes as the host reads them: UTF-8 (its byte-order mark dropped), else Windows-1252. */
function decode(bytes: ArrayBuffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return new TextDecoder('windows-1252').decode(bytes)
  }
}

/** The first record of a CSV text: its cells, quoted ones unquoted, `,` or `;` as the host chooses. */
export function headerOf(text: string): string[] {
  const line = text.slice(0, text.search(/\r?\n|$/))
  const delimiter = (line.match(/;/g)?.length ?? 0) > (line.match(/,/g)?.length ?? 0) ? ';' : ','
  const cells: string[] = []
  let cell = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"'
        i++
      } else if (ch === '"') quoted = false
      else cell += ch
    } else if (ch === '"') quoted = true
    else if (ch === delimiter) {
      cells.push(cell)
      cell = ''
    } else if (ch === '\n' || ch === '\r') break
    else cell += ch
  }
  cells.push(cell)
  return cells.map((c, i) => c.trim() || `Column ${i + 1}`)
}

/** The columns of a chosen file (its first line); [] when it has none. */
export async function columnsOf(file: Blob): Promise<string[]> {
  // The header is within the first bytes: no need to read a large table whole.
  const text = decode(await file.slice(0, 64 * 1024).arrayBuffer())
  return text.trim() ? headerOf(text).filter((c, i, all) => all.indexOf(c) === i) : []
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
