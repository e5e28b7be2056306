import { useId } from 'react'
import type { DraftField } from './draft/model.js'
import type { DraftLogicIssue } from './draft/logic.js'
import { parseFormula } from '../../../shared/field-logic/index.js'
import { t } from '../i18n/index.js'
import { logicMessage } from './logicWords.js'

/**
 * A NUMBER field's formula: computed from other fields as the recipient fills them. Whether it
 * parses is said as it is typed; what the whole draft's check finds (a label no field has, a
 * circular reference) too.
 */
export function FieldFormula(props: { field: DraftField; issues: DraftLogicIssue[]; onChange: (patch: Partial<DraftField>) => void }) {
  const id = useId()
  const formula = props.field.formula ?? ''
  const parsed = formula.trim() ? parseFormula(formula) : null
  const errors = parsed && 'error' in parsed ? [t('logic.formulaError', { message: logicMessage(parsed.error), at: parsed.at + 1 })] : props.issues.map((i) => logicMessage(i.message))
  const helpId = `${id}-help`
  const errorId = `${id}-error`
  return (
    <div className="form-field logic-formula">
      <label className="label-sm" htmlFor={`${id}-input`}>
        {t('logic.formula')}
      </label>
      <input
        id={`${id}-input`}
        className="input logic-formula-input"
        value={formula}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={errors.length > 0 || undefined}
        aria-describedby={errors.length ? `${errorId} ${helpId}` : helpId}
        onChange={(e) => props.onChange({ formula: e.target.value === '' ? undefined : e.target.value })}
      />
      {errors.length > 0 && (
        <p className="field-error" id={errorId}>
          {errors.join(' ')}
        </p>
      )}
      <p className="muted small" id={helpId}>
        {t('logic.formulaHelp', { example: '{Unit price}' })}
      </p>
    </div>
  )
}
