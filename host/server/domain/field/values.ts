import { SIGNATURE_FIELD_TYPES, type SigningFieldValue } from '../../../../src/protocol/index.js'
import { ApiError, issue, type ApiIssue } from '../../errors.js'
import { MAX_PNG_PIXELS, readPngHeader } from '../../images/png.js'
import { MAX_SIGNATURE_BYTES } from '../../images/signature.js'
import { runHeavy } from '../../workers/heavy.js'
import { throwIfIssues } from './fields.js'
import { baseRequired } from '../../../shared/field-logic/index.js'
import type { FieldRow } from '../common/rows.js'

const PNG_URL = /^data:image\/png;base64,([A-Za-z0-9+/]+={0,2})$/
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** Filled by the service, never by the recipient. */
export const isAutoFilled = (type: string) => type === 'DATE'

/**
 * Whether a recipient must fill a field before completing: signatures, initials, name, e-mail and
 * date always; the other types when their fieldMeta says `required: true`.
 */
export const isRequired = (f: Pick<FieldRow, 'type' | 'field_meta'>): boolean => baseRequired(f.type, f.field_meta)

const optionsOf = (f: Pick<FieldRow, 'field_meta'>): string[] =>
  Array.isArray(f.field_meta?.options) ? (f.field_meta.options as unknown[]).filter((o): o is string => typeof o === 'string') : []

/**
 * The stored text of a value a recipient gave for field `f` (a JSON array for checkboxes), or an
 * issue explaining why it cannot be stored. `path` addresses the value in the request.
 */
export function storedValue(f: Pick<FieldRow, 'type' | 'field_meta'>, value: SigningFieldValue, path: (string | number)[]): string | ApiIssue {
  const bad = (message: string) => issue(path, message)
  if (f.type === 'CHECKBOX') {
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) return bad('Expected an array of the checked options')
    const options = optionsOf(f)
    const unknown = value.find((v) => !options.includes(v))
    if (unknown !== undefined) return bad(`"${unknown}" is not an option of this field`)
    return JSON.stringify([...new Set(value)])
  }
  if (typeof value !== 'string') return bad('Expected a string')
  if (SIGNATURE_FIELD_TYPES.includes(f.type as never)) {
    const m = PNG_URL.exec(value)
    if (!m) return bad('Expected a PNG image as a data:image/png;base64 URL')
    const bytes = Buffer.from(m[1]!, 'base64')
    if (bytes.byteLength > MAX_SIGNATURE_BYTES) return bad(`The signature image exceeds ${MAX_SIGNATURE_BYTES} bytes`)
    if (!PNG_MAGIC.every((b, i) => bytes[i] === b)) return bad('The signature image is not a PNG')
    return value
  }
  const text = value.trim()
  if (text.length > 1000) return bad('At most 1000 characters')
  switch (f.type) {
    case 'EMAIL':
      return EMAIL.test(text) ? text : bad('Expected an e-mail address')
    case 'NUMBER': {
      const n = Number(text.replace(',', '.'))
      if (!text || !Number.isFinite(n)) return bad('Expected a number')
      const { minValue, maxValue } = (f.field_meta ?? {}) as { minValue?: unknown; maxValue?: unknown }
      if (typeof minValue === 'number' && n < minValue) return bad(`Must be at least ${minValue}`)
      if (typeof maxValue === 'number' && n > maxValue) return bad(`Must be at most ${maxValue}`)
      return text
    }
    case 'RADIO':
    case 'DROPDOWN':
      return optionsOf(f).includes(value) ? value : bad(`"${value}" is not an option of this field`)
    default:
      return text
  }
}

/**
 * The submission with every PNG picture (a signature or initials) decoded and re-encoded as the
 * host stores it, in a heavy-work thread, before anything is written: sealing then only meets
 * small, well-formed images. A picture past the budgets, or one that does not decode, is a 400 to
 * its sender, naming the value (`fields.{i}.value`).
 */
export async function normalizePictures<T extends { fields: { id: number; value: SigningFieldValue }[] }>(input: T): Promise<T> {
  const issues: ApiIssue[] = []
  // One decode per distinct picture (initials repeated on every page are one), one at a time.
  const done = new Map<string, { png: string } | { refused: string }>()
  const fields: T['fields'] = []
  for (const [i, f] of input.fields.entries()) {
    const m = typeof f.value === 'string' ? PNG_URL.exec(f.value) : null
    if (!m) {
      fields.push(f) // storedValue judges anything else
      continue
    }
    let result = done.get(m[1]!)
    if (!result) done.set(m[1]!, (result = await normalizePicture(Buffer.from(m[1]!, 'base64'))))
    if ('refused' in result) issues.push(issue(['fields', i, 'value'], `The signature image cannot be used: ${result.refused}`))
    fields.push('png' in result ? { ...f, value: `data:image/png;base64,${result.png}` } : f)
  }
  throwIfIssues(issues)
  return { ...input, fields }
}

async function normalizePicture(bytes: Buffer): Promise<{ png: string } | { refused: string }> {
  if (bytes.byteLength > MAX_SIGNATURE_BYTES) return { refused: `it exceeds ${MAX_SIGNATURE_BYTES} bytes` }
  // Before any thread decodes it: what it says it holds.
  const header = readPngHeader(bytes)
  if (typeof header === 'string') return { refused: `the image is ${header}` }
  if (header.width * header.height > MAX_PNG_PIXELS) {
    return { refused: `the image is ${header.width} x ${header.height} pixels; at most ${MAX_PNG_PIXELS.toLocaleString('en')} pixels are accepted` }
  }
  // A thread that died or overran on it refuses the picture; a full queue (503) stays what it is.
  const done = await runHeavy('signature', { png: bytes }, { failure: (why) => new Error(why) }).catch((err: Error) => {
    if (err instanceof ApiError) throw err
    return { refused: err.message }
  })
  return 'refused' in done ? done : { png: Buffer.from(done.png).toString('base64') }
}
