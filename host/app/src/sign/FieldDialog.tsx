import { useId, useState, type FormEvent } from 'react'
import type { SigningFieldValue } from '../../../../src/protocol/index.js'
import { t } from '../i18n/index.js'
import { Dialog } from './Dialog.js'
import { fieldName } from './FieldOverlay.js'
import { problemOf, rulesOf, type SigningField } from './session.js'

/** Fills one form field (everything but the signature kinds and DATE) in a dialog. */
export function FieldDialog(props: {
  field: SigningField
  value: SigningFieldValue | undefined
  /** Whether it must be filled now (its conditions decide); else as its fieldMeta says. */
  required?: boolean
  onSave: (value: SigningFieldValue | undefined) => void
  onClose: () => void
}) {
  const { field: f } = props
  const rules = rulesOf(f)
  const required = props.required ?? rules.required
  const [value, setValue] = useState<SigningFieldValue | undefined>(props.value ?? (f.type === 'CHECKBOX' ? [] : ''))
  const [error, setError] = useState<string | null>(null)
  const ids = useId()
  const errorId = `${ids}-error`

  function save(e?: FormEvent) {
    e?.preventDefault()
    const problem = problemOf(f, value, required)
    if (problem) {
      setError(t(problem.key, problem.vars))
      return
    }
    props.onSave(Array.isArray(value) ? value : value?.trim() === '' ? undefined : value)
  }

  const invalid = error ? true : undefined
  const described = [rules.min !== null || rules.max !== null ? `${ids}-hint` : '', errorId].filter(Boolean).join(' ')
  const label = fieldName(f)
  let control
  switch (f.type) {
    case 'CHECKBOX':
    case 'RADIO': {
      const list = Array.isArray(value) ? value : []
      control = (
        <fieldset className="stack-sm" aria-describedby={errorId} aria-invalid={invalid}>
          <legend className="label">
            {label}
            {required && <span className="required-mark"> {t('sign.field.requiredMark')}</span>}
          </legend>
          {rules.options.map((o, i) => (
            <label key={i} className="choice choice-large">
              {f.type === 'CHECKBOX' ? (
                <input type="checkbox" checked={list.includes(o)} onChange={(e) => setValue(e.target.checked ? [...list, o] : list.filter((x) => x !== o))} />
              ) : (
                <input type="radio" name={`${ids}-radio`} checked={value === o} onChange={() => setValue(o)} />
              )}
              <span>{o}</span>
            </label>
          ))}
        </fieldset>
      )
      break
    }
    case 'DROPDOWN':
      control = (
        <>
          <FieldLabel id={`${ids}-input`} label={label} required={required} />
          <select id={`${ids}-input`} className="input" value={typeof value === 'string' ? value : ''} onChange={(e) => setValue(e.target.value)} aria-invalid={invalid} aria-describedby={described}>
            <option value="">{t('sign.field.choose')}</option>
            {rules.options.map((o, i) => (
              <option key={i} value={o}>
                {o}
              </option>
            ))}
          </select>
        </>
      )
      break
    default:
      control = (
        <>
          <FieldLabel id={`${ids}-input`} label={label} required={required} />
          <input
            id={`${ids}-input`}
            className="input"
            type={f.type === 'EMAIL' ? 'email' : 'text'}
            inputMode={f.type === 'NUMBER' ? 'decimal' : f.type === 'EMAIL' ? 'email' : undefined}
            autoComplete={f.type === 'NAME' ? 'name' : f.type === 'EMAIL' ? 'email' : 'off'}
            maxLength={rules.maxLength}
            placeholder={rules.placeholder ?? undefined}
            value={typeof value === 'string' ? value : ''}
            onChange={(e) => {
              setValue(e.target.value)
              if (error) setError(null)
            }}
            aria-invalid={invalid}
            aria-describedby={described}
          />
          {(rules.min !== null || rules.max !== null) && (
            <p id={`${ids}-hint`} className="muted small">
              {rules.min !== null && rules.max !== null
                ? t('sign.field.range', { min: rules.min, max: rules.max })
                : rules.min !== null
                  ? t('sign.invalid.min', { min: rules.min })
                  : t('sign.invalid.max', { max: rules.max! })}
            </p>
          )}
        </>
      )
  }

  return (
    <Dialog
      title={label}
      onClose={props.onClose}
      testId="field-dialog"
      footer={
        <>
          <button type="button" className="btn" onClick={props.onClose}>
            {t('sign.cancel')}
          </button>
          <button type="submit" form={`${ids}-form`} className="btn btn-primary" data-testid="save-field">
            {t('sign.field.save')}
          </button>
        </>
      }
    >
      <form id={`${ids}-form`} className="form-field" onSubmit={save} noValidate>
        {control}
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      </form>
    </Dialog>
  )
}

function FieldLabel({ id, label, required }: { id: string; label: string; required: boolean }) {
  return (
    <label className="label" htmlFor={id}>
      {label}
      {required && <span className="required-mark"> {t('sign.field.requiredMark')}</span>}
    </label>
  )
}
