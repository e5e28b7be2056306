import { useMemo, useState } from 'react'
import type { Draft, DraftField } from './draft/model.js'
import { editableCondition, logicIssues, newRule, onRule, referable, type Condition } from './draft/logic.js'
import { t } from '../i18n/index.js'
import { FieldCondition } from './FieldCondition.js'
import { FieldFormula } from './FieldFormula.js'
import { Icon } from '../page/icons.js'
import { logicMessage } from './logicWords.js'

/**
 * The selected field's logic: a condition (when it is shown, hidden, required or optional) and, for
 * a NUMBER field, a formula; what the check finds wrong with them, as the user edits.
 */
export function FieldLogic(props: { field: DraftField; draft: Draft; onChange: (patch: Partial<DraftField>) => void }) {
  const { field: f, draft, onChange } = props
  const [open, setOpen] = useState(() => !!f.condition || !!f.formula)
  const issues = useMemo(() => logicIssues(draft.fields).filter((i) => i.fieldKey === f.key), [draft.fields, f.key])
  const others = useMemo(() => referable(draft.fields, f.key), [draft.fields, f.key])
  const condition = f.condition
  const setCondition = (next: Condition | undefined) => onChange({ condition: next })
  const showFormula = f.type === 'NUMBER' || f.formula !== undefined
  // Issues neither a rule nor the formula shows: the condition's own, or a cycle through it.
  const general = issues.filter((i) => i.path[0] !== 'formula' && !(condition && editableCondition(condition) && condition.rules.some((_, n) => onRule(i, n))))

  return (
    <details className="logic" open={open} onToggle={(e) => setOpen(e.currentTarget.open)} data-testid="field-logic">
      <summary className="logic-summary">
        <span className="label-sm">{t('logic.heading')}</span>
        <span className="muted small">{logicSummary(f)}</span>
      </summary>
      <div className="logic-body">
        {condition === undefined ? (
          others.length > 0 ? (
            <button type="button" className="btn btn-sm" onClick={() => setCondition({ effect: 'show', match: 'all', rules: [newRule(others[0]!)] })}>
              <Icon name="plus" />
              {t('logic.addCondition')}
            </button>
          ) : (
            <p className="muted small">{t('logic.noLabels')}</p>
          )
        ) : editableCondition(condition) ? (
          <FieldCondition condition={condition} others={others} issues={issues} onChange={setCondition} />
        ) : (
          <div className="logic-condition">
            <p className="small">{t('logic.malformed')}</p>
            <button type="button" className="btn btn-sm btn-danger-outline" onClick={() => setCondition(undefined)}>
              <Icon name="trash" />
              {t('logic.removeCondition')}
            </button>
          </div>
        )}
        {showFormula && <FieldFormula field={f} issues={issues.filter((i) => i.path[0] === 'formula')} onChange={onChange} />}
        {general.length > 0 && (
          <ul className="field-error logic-issues">
            {general.map((i, n) => (
              <li key={n}>{logicMessage(i.message)}</li>
            ))}
          </ul>
        )}
      </div>
    </details>
  )
}

/** What the closed section says of the field's logic. */
function logicSummary(f: DraftField): string {
  const parts = [
    ...(f.condition ? [t(editableCondition(f.condition) ? `logic.effect.${f.condition.effect}` : 'logic.condition')] : []),
    ...(f.formula?.trim() ? [t('logic.formula')] : []),
  ]
  return parts.length ? parts.join(' · ') : t('logic.nothing')
}
