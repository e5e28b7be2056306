import { forwardRef, memo, type Ref } from 'react'
import type { SigningFieldValue } from '../../../../src/protocol/index.js'
import type { FieldState } from '../../../shared/field-logic/index.js'
import { t, type MessageKey } from '../i18n/index.js'
import { Icon } from '../page/icons.js'
import { isSignatureType, rulesOf, type SigningField } from './session.js'

export const fieldName = (f: SigningField) => rulesOf(f).label ?? t(`field.${f.type}` as MessageKey)

const display = (value: SigningFieldValue | undefined) => (Array.isArray(value) ? value.join(', ') : (value ?? ''))

/**
 * One of the recipient's fields over its page: a button that opens what fills it, showing
 * the value (or the signature) once there is one. DATE is stamped by the service at signing.
 */
export const FieldOverlay = memo(
  forwardRef<HTMLElement, {
    field: SigningField
    value: SigningFieldValue | undefined
    filled: boolean
    invalid: boolean
    /** Whether it must be filled now (its conditions decide). */
    required: boolean
    /** A formula's field: its result or why there is none; the page fills it, the signer never types in it. */
    computed?: FieldState['computed']
    locked: boolean
    /** The guide's current field. */
    current: boolean
    onOpen: (field: SigningField) => void
  }>(function FieldOverlay({ field: f, value, filled, invalid, required, computed, locked, current, onOpen }, ref) {
    const style = { left: `${f.positionX}%`, top: `${f.positionY}%`, width: `${f.width}%`, height: `${f.height}%` }
    const name = fieldName(f)
    const data = {
      'data-field': f.id,
      'data-type': f.type,
      'data-state': f.type === 'DATE' ? 'auto' : !filled ? 'empty' : invalid ? 'invalid' : 'filled',
      'data-required': required || undefined,
      'data-current': current || undefined,
    }

    if (computed) {
      const failed = 'error' in computed ? computed.error : null
      const why = failed === null ? '' : failed === 'Division by zero' ? t('sign.logic.divisionByZero') : t('sign.logic.cannotCompute')
      const shown = failed === null ? display(value) : why
      return (
        <div
          ref={ref as Ref<HTMLDivElement>}
          className="sign-field"
          style={style}
          {...data}
          data-computed={failed === null ? 'value' : 'error'}
          role="note"
          aria-label={`${name}, ${t('sign.logic.computed')}: ${shown}`}
          // Not in the tab order (there is nothing to do in it), but the guide can lead to one a required total waits on.
          tabIndex={-1}
        >
          {failed === null ? (
            <span className="sign-field-text">
              <span className="sign-field-equals" aria-hidden="true">=</span>
              {shown}
            </span>
          ) : (
            <span className="sign-field-text sign-field-hint">
              <Icon name="alert" size={12} />
              <span className="sign-field-label">{shown}</span>
            </span>
          )}
        </div>
      )
    }

    if (f.type === 'DATE') {
      return (
        <div className="sign-field" style={style} {...data} role="note" aria-label={`${name}: ${t('sign.field.dateAuto')}`}>
          <span className="sign-field-text sign-field-hint">
            <Icon name="DATE" size={12} />
            <span className="sign-field-label">{t('sign.field.dateAuto')}</span>
          </span>
        </div>
      )
    }

    // What an empty field shows; its accessible name says it too (a name must contain the visible text).
    const hint = isSignatureType(f) ? (f.type === 'INITIALS' ? t('sign.field.initialHere') : t('sign.field.signHere')) : name
    const image = isSignatureType(f) && filled && typeof value === 'string' && value.startsWith('data:image/')
    const status = filled
      ? isSignatureType(f)
        ? t('sign.field.signed')
        : t('sign.field.filledWith', { value: display(value) })
      : isSignatureType(f)
        ? hint
        : t('sign.field.empty')
    const label = `${name}, ${required ? t('sign.field.required') : t('sign.field.optional')}, ${status}${invalid && filled ? ', ' + t('sign.field.invalid') : ''}`
    const content = image ? (
      <img src={value as string} alt="" className="sign-field-image" />
    ) : filled ? (
      <span className="sign-field-text">{display(value)}</span>
    ) : (
      <span className="sign-field-text sign-field-hint">
        <Icon name={f.type} size={12} />
        <span className="sign-field-label">{hint}</span>
        {required && <span aria-hidden="true">*</span>}
      </span>
    )

    if (locked) {
      return (
        <div ref={ref as Ref<HTMLDivElement>} className="sign-field" style={style} {...data} data-locked role="note" aria-label={`${label}, ${t('sign.field.locked')}`}>
          {content}
        </div>
      )
    }
    return (
      <button ref={ref as Ref<HTMLButtonElement>} type="button" className="sign-field" style={style} {...data} aria-label={label} onClick={() => onOpen(f)}>
        {content}
      </button>
    )
  }),
)
