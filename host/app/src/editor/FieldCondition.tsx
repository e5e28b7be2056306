import { useId } from 'react'
import { adjustRule, newRule, onRule, testsFor, type Condition, type DraftLogicIssue, type Rule, type RuleTest } from './draft/logic.js'
import { EFFECTS, MATCHES, MAX_RULES, valueNeed } from '../../../shared/field-logic/index.js'
import { t, type MessageKey } from '../i18n/index.js'
import { Icon } from '../page/icons.js'
import { logicMessage } from './logicWords.js'

type Other = { label: string; type: string; options: string[] }

/** A condition: what it does, whether all or any rule must hold, and its rules. */
export function FieldCondition(props: { condition: Condition; others: Other[]; issues: DraftLogicIssue[]; onChange: (next: Condition | undefined) => void }) {
  const { condition: c, others, onChange } = props
  const id = useId()
  const canAdd = others.length !== 0 && c.rules.length < MAX_RULES
  const setRule = (n: number, rule: Rule) => onChange({ ...c, rules: c.rules.map((r, i) => (i === n ? rule : r)) })
  return (
    <div className="logic-condition" role="group" aria-labelledby={`${id}-heading`}>
      <p className="label-sm" id={`${id}-heading`}>
        {t('logic.condition')}
      </p>
      <div className="logic-when">
        <select className="input" aria-label={t('logic.effectOf')} value={c.effect} onChange={(e) => onChange({ ...c, effect: e.target.value as Condition['effect'] })}>
          {EFFECTS.map((effect) => (
            <option key={effect} value={effect}>
              {t(`logic.effect.${effect}`)}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="logic-match">
        <legend className="sr-only">{t('logic.match')}</legend>
        {MATCHES.map((match) => (
          <label key={match} className="choice">
            <input type="radio" name={`${id}-match`} value={match} checked={c.match === match} onChange={() => onChange({ ...c, match })} />
            {t(`logic.match.${match}`)}
          </label>
        ))}
      </fieldset>
      <ol className="logic-rules">
        {c.rules.map((rule, n) => (
          <RuleRow
            key={n}
            n={n + 1}
            rule={rule}
            others={others}
            issues={props.issues.filter((i) => onRule(i, n))}
            onChange={(next) => setRule(n, next)}
            onRemove={() => onChange(c.rules.length > 1 ? { ...c, rules: c.rules.filter((_, i) => i !== n) } : undefined)}
          />
        ))}
      </ol>
      <div className="logic-actions">
        {canAdd && (
          <button type="button" className="btn btn-sm" onClick={() => onChange({ ...c, rules: [...c.rules, newRule(others[0]!)] })}>
            <Icon name="plus" />
            {t('logic.addRule')}
          </button>
        )}
        <button type="button" className="btn btn-sm btn-danger-outline" onClick={() => onChange(undefined)}>
          <Icon name="trash" />
          {t('logic.removeCondition')}
        </button>
      </div>
    </div>
  )
}

/** One rule: the other field, the test (only those that fit its type), and a value when the test takes one. */
function RuleRow(props: { n: number; rule: Rule; others: Other[]; issues: DraftLogicIssue[]; onChange: (rule: Rule) => void; onRemove: () => void }) {
  const { n, rule, others, issues } = props
  const id = useId()
  const label = typeof rule.field === 'string' ? rule.field.trim() : ''
  const other = others.find((o) => o.label === label)
  const tests: string[] = other ? testsFor(other.type) : []
  if (!tests.includes(rule.test)) tests.unshift(rule.test)
  const need = valueNeed(rule.test)
  const choices = other && ['RADIO', 'DROPDOWN', 'CHECKBOX'].includes(other.type) ? other.options : null
  const value = rule.value === undefined ? '' : String(rule.value)
  const invalid = issues.length > 0
  const errorId = `${id}-error`
  const described = invalid ? errorId : undefined
  return (
    <li>
      <div className="logic-rule" role="group" aria-labelledby={`${id}-title`}>
        <div className="logic-rule-head">
          <span className="label-sm" id={`${id}-title`}>
            {t('logic.ruleN', { n })}
          </span>
          <button type="button" className="btn-icon" aria-label={t('logic.removeRule', { n })} onClick={props.onRemove}>
            <Icon name="x" />
          </button>
        </div>
        <select
          className="input"
          aria-label={t('logic.ruleField', { n })}
          aria-invalid={!other || undefined}
          aria-describedby={described}
          value={label}
          onChange={(e) => {
            const next = others.find((o) => o.label === e.target.value)
            props.onChange(adjustRule(rule, next, { field: e.target.value }))
          }}
        >
          {!other && <option value={label}>{label ? t('logic.missingField', { label }) : t('logic.pickField')}</option>}
          {others.map((o) => (
            <option key={o.label} value={o.label}>
              {o.label}
            </option>
          ))}
        </select>
        <select className="input" aria-label={t('logic.ruleTest', { n })} aria-describedby={described} value={rule.test} onChange={(e) => props.onChange(adjustRule(rule, other, { test: e.target.value as RuleTest }))}>
          {tests.map((test) => (
            <option key={test} value={test}>
              {t(`logic.test.${test}` as MessageKey)}
            </option>
          ))}
        </select>
        {need !== 'forbidden' &&
          (choices ? (
            <select
              className="input"
              aria-label={t('logic.ruleValue', { n })}
              aria-describedby={described}
              value={value}
              onChange={(e) => props.onChange(adjustRule(rule, other, e.target.value === '' && need === 'optional' ? { value: undefined } : { value: e.target.value }))}
            >
              {need === 'optional' && <option value="">{t('logic.anyOption')}</option>}
              {value !== '' && !choices.includes(value) && <option value={value}>{value}</option>}
              {choices.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
          ) : (
            <input
              className="input"
              aria-label={t('logic.ruleValue', { n })}
              aria-describedby={described}
              inputMode={other?.type === 'NUMBER' || /^(greaterThan|lessThan|atLeast|atMost)$/.test(rule.test) ? 'decimal' : undefined}
              value={value}
              onChange={(e) => props.onChange({ ...rule, value: e.target.value })}
            />
          ))}
        {invalid && (
          <ul className="field-error logic-issues" id={errorId}>
            {issues.map((i, k) => (
              <li key={k}>{logicMessage(i.message)}</li>
            ))}
          </ul>
        )}
      </div>
    </li>
  )
}
