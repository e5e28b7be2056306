import { useId } from 'react'
import type { Field, Recipient } from '../../../../../src/protocol/index.js'
import { ct, type ConsoleKey } from '../i18n/index.js'
import './prefill.css'

/** The fields a template's document can be given a value for ahead, by type, as API v2's `prefillFields` names them. */
const PREFILL_TYPES = { TEXT: 'text', NUMBER: 'number', DATE: 'date', CHECKBOX: 'checkbox', RADIO: 'radio', DROPDOWN: 'dropdown' } as const
type PrefillType = keyof typeof PREFILL_TYPES

/** What the person entered, by field id: text, or the checked options of a checkbox field. */
export type PrefillValues = Record<number, string | string[]>

export const prefillable = (fields: Field[]) => fields.filter((f): f is Field & { type: PrefillType } => f.type in PREFILL_TYPES)

/** The `prefillFields` of `/envelope/use`: only the fields given a value (an empty one is left to its recipient). */
export function prefillEntries(fields: Field[], values: PrefillValues) {
  return prefillable(fields).flatMap((f) => {
    const value = values[f.id]
    const empty = value === undefined || (Array.isArray(value) ? value.length === 0 : value.trim() === '')
    return empty ? [] : [{ id: f.id, type: PREFILL_TYPES[f.type], value: Array.isArray(value) ? value : value.trim() }]
  })
}

const metaOf = (f: Field) => (f.fieldMeta ?? {}) as { label?: unknown; options?: unknown }
const optionsOf = (f: Field) => (Array.isArray(metaOf(f).options) ? (metaOf(f).options as unknown[]).filter((o): o is string => typeof o === 'string' && o !== '') : [])

/**
 * A template's fillable fields, each with the control of its kind: a text box, a number, a date,
 * checkboxes, radio buttons or a list of the field's own options. `errors`: the host's refusal of a
 * value, by field id, shown under that field.
 */
export function PrefillFields(props: { fields: Field[]; recipients: Recipient[]; values: PrefillValues; errors: Record<number, string>; onChange: (id: number, value: string | string[]) => void }) {
  const fields = prefillable(props.fields)
  if (fields.length === 0) return null
  return (
    <fieldset className="docs-prefill">
      <legend className="label">{ct('templates.prefill')}</legend>
      <p className="muted small">{ct('templates.prefillHelp')}</p>
      {fields.map((f, n) => (
        <PrefillField key={f.id} field={f} n={n + 1} recipient={props.recipients.find((r) => r.id === f.recipientId)} value={props.values[f.id]} error={props.errors[f.id]} onChange={(v) => props.onChange(f.id, v)} />
      ))}
    </fieldset>
  )
}

function PrefillField(props: { field: Field & { type: PrefillType }; n: number; recipient: Recipient | undefined; value: string | string[] | undefined; error: string | undefined; onChange: (v: string | string[]) => void }) {
  const { field: f } = props
  const id = useId()
  const kind = ct(`templates.field.${f.type}` as ConsoleKey)
  const label = typeof metaOf(f).label === 'string' && (metaOf(f).label as string).trim() ? (metaOf(f).label as string).trim() : ct('templates.fieldN', { type: kind, n: props.n })
  const about = ct('templates.fieldFor', { type: kind, recipient: props.recipient ? props.recipient.name || props.recipient.email : '—', page: f.page })
  const described = `${id}-about${props.error ? ` ${id}-error` : ''}`
  const invalid = props.error ? true : undefined
  const text = typeof props.value === 'string' ? props.value : ''
  const options = optionsOf(f)

  let control
  if (f.type === 'CHECKBOX' || f.type === 'RADIO') {
    const checked = Array.isArray(props.value) ? props.value : text ? [text] : []
    control = (
      <fieldset className="docs-prefill-choices" aria-describedby={described} aria-invalid={invalid}>
        <legend className="label">{label}</legend>
        {f.type === 'RADIO' && (
          <label className="docs-prefill-choice">
            <input type="radio" name={id} checked={!text} onChange={() => props.onChange('')} />
            {ct('templates.notFilled')}
          </label>
        )}
        {options.map((o) => (
          <label key={o} className="docs-prefill-choice">
            {f.type === 'RADIO' ? (
              <input type="radio" name={id} checked={text === o} onChange={() => props.onChange(o)} />
            ) : (
              <input type="checkbox" checked={checked.includes(o)} onChange={(e) => props.onChange(e.target.checked ? [...checked, o] : checked.filter((c) => c !== o))} />
            )}
            {o}
          </label>
        ))}
      </fieldset>
    )
  } else {
    const common = { id, className: 'input', value: text, 'aria-describedby': described, 'aria-invalid': invalid }
    control = (
      <>
        <label className="label" htmlFor={id}>
          {label}
        </label>
        {f.type === 'DROPDOWN' ? (
          <select {...common} onChange={(e) => props.onChange(e.target.value)}>
            <option value="">{ct('templates.notFilled')}</option>
            {options.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        ) : (
          // A number is typed as text: the host says what it refuses (a bound, a letter) under the field.
          <input {...common} type={f.type === 'DATE' ? 'date' : 'text'} inputMode={f.type === 'NUMBER' ? 'decimal' : undefined} onChange={(e) => props.onChange(e.target.value)} />
        )}
      </>
    )
  }
  return (
    <div className="form-field" data-testid="prefill-field">
      {control}
      {props.error && (
        <span id={`${id}-error`} className="docs-prefill-error small">
          {props.error}
        </span>
      )}
      <span id={`${id}-about`} className="muted small">
        {about}
      </span>
    </div>
  )
}
