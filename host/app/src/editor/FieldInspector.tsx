import { clampGeometry, optionsFor, type Draft, type DraftField } from './draft/model.js'
import { t } from '../i18n/index.js'
import { FIELD_TYPES, OPTION_FIELD_TYPES, type FieldType } from '../page/types.js'
import { Icon } from '../page/icons.js'
import { FieldLogic } from './FieldLogic.js'

/** Properties of the selected field: recipient, type, label, required, options, logic, geometry. */
export function FieldInspector(props: {
  field: DraftField | null
  draft: Draft
  invalid: boolean
  /** Every page of every item, so a field can be moved to another page without a mouse. */
  pages: { itemKey: string; title: string; count: number }[]
  onChange: (patch: Partial<DraftField>) => void
  onDelete: () => void
}) {
  const { field: f, onChange } = props
  if (!f)
    return (
      <div className="tool-section inspector inspector-empty">
        <p className="label">{t('fields.selected')}</p>
        <p className="muted small">{t('fields.none')}</p>
      </div>
    )
  const hasOptions = (OPTION_FIELD_TYPES as readonly string[]).includes(f.type)
  const setOption = (n: number, value: string) => onChange({ options: f.options.map((o, i) => (i === n ? value : o)) })
  const geometry = (key: 'x' | 'y' | 'w' | 'h', value: number) =>
    Number.isFinite(value) && onChange(clampGeometry({ x: f.x, y: f.y, w: f.w, h: f.h, [key]: value }))

  return (
    <section className="tool-section inspector" aria-label={t('fields.selected')} data-testid="inspector">
      <p className="label">{t('fields.selected')}</p>
      <div className="form-field">
        <label className="label-sm" htmlFor="field-recipient">
          {t('fields.recipientOf')}
        </label>
        <select id="field-recipient" className="input" value={f.recipientKey} onChange={(e) => onChange({ recipientKey: e.target.value })}>
          {props.draft.recipients.map((r, n) => (
            <option key={r.key} value={r.key}>
              {r.name.trim() || r.email.trim() || t('recipients.label', { n: n + 1 })}
            </option>
          ))}
        </select>
      </div>
      <div className="form-field">
        <label className="label-sm" htmlFor="field-type">
          {t('fields.type')}
        </label>
        <select
          id="field-type"
          className="input"
          value={f.type}
          onChange={(e) => {
            const type = e.target.value as FieldType
            // Only a NUMBER field computes: a formula does not outlive the type.
            onChange({ type, options: f.options.length ? f.options : optionsFor(type), ...(type !== 'NUMBER' && { formula: undefined }) })
          }}
        >
          {[...FIELD_TYPES, ...(f.type === 'FREE_SIGNATURE' ? ['FREE_SIGNATURE' as const] : [])].map((type) => (
            <option key={type} value={type}>
              {t(`field.${type}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="form-field">
        <label className="label-sm" htmlFor="field-page">
          {t('fields.onPage')}
        </label>
        <select
          id="field-page"
          className="input"
          value={`${f.itemKey}:${f.page}`}
          onChange={(e) => {
            const [itemKey, page] = e.target.value.split(':')
            onChange({ itemKey, page: Number(page) })
          }}
        >
          {props.pages.map((p) => (
            <optgroup key={p.itemKey} label={p.title}>
              {Array.from({ length: Math.max(p.count, p.itemKey === f.itemKey ? f.page : 0) }, (_, n) => (
                <option key={n} value={`${p.itemKey}:${n + 1}`}>
                  {t('fields.pageN', { page: n + 1, title: p.title })}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </div>
      <div className="form-field">
        <label className="label-sm" htmlFor="field-label">
          {t('fields.label')}
        </label>
        <input id="field-label" className="input" value={f.label} onChange={(e) => onChange({ label: e.target.value })} />
      </div>
      <label className="choice">
        <input type="checkbox" checked={f.required} onChange={(e) => onChange({ required: e.target.checked })} />
        {t('fields.required')}
      </label>
      {hasOptions && (
        <fieldset className="options" aria-invalid={props.invalid || undefined}>
          <legend className="label-sm">{t('fields.options')}</legend>
          {f.options.map((o, n) => (
            <div className="option-row" key={n}>
              <input className="input" aria-label={t('fields.option', { n: n + 1 })} value={o} onChange={(e) => setOption(n, e.target.value)} />
              <button type="button" className="btn-icon" aria-label={t('fields.removeOption', { n: n + 1 })} onClick={() => onChange({ options: f.options.filter((_, i) => i !== n) })}>
                <Icon name="x" />
              </button>
            </div>
          ))}
          {props.invalid && <p className="field-error">{t('problem.fieldOptions')}</p>}
          <button type="button" className="btn btn-sm" onClick={() => onChange({ options: [...f.options, t('fields.option', { n: f.options.length + 1 })] })}>
            <Icon name="plus" />
            {t('fields.addOption')}
          </button>
        </fieldset>
      )}
      <FieldLogic key={f.key} field={f} draft={props.draft} onChange={onChange} />
      <fieldset className="geometry">
        <legend className="label-sm">{t('fields.position')}</legend>
        {(['x', 'y', 'w', 'h'] as const).map((key) => (
          <label key={key} className="geometry-input">
            <span>{t(`fields.${key}`)}</span>
            <input className="input" type="number" step="0.5" min="0" max="100" value={f[key]} onChange={(e) => geometry(key, e.target.valueAsNumber)} />
          </label>
        ))}
      </fieldset>
      <button type="button" className="btn btn-danger-outline" onClick={props.onDelete}>
        <Icon name="trash" />
        {t('fields.delete')}
      </button>
    </section>
  )
}
