import type { MouseEvent as ReactMouseEvent, PointerEvent as ReactPointerEvent } from 'react'
import type { Draft, DraftRecipient, Problem } from './draft/model.js'
import { t, tn } from '../i18n/index.js'
import { FIELD_TYPES, type FieldType } from '../page/types.js'
import { Icon } from '../page/icons.js'
import { recipientColor } from './steps.js'

/** Whom new fields are for: one chip per recipient, with their count of fields and a missing signature said as the user works. */
export function RecipientPicker(props: { draft: Draft; recipient: DraftRecipient | null; unsignedKeys: Set<string>; problems: Problem[]; onPick: (key: string) => void }) {
  const { draft, recipient, unsignedKeys, problems } = props
  return (
    <div className="tool-section">
      <p className="label" id="recipient-picker-label">
        {t('fields.recipient')}
      </p>
      <div className="recipient-picker" role="radiogroup" aria-labelledby="recipient-picker-label">
        {draft.recipients.map((r, n) => {
          const count = draft.fields.filter((f) => f.recipientKey === r.key).length
          // Said as the user works, not only once Create fails.
          const unsigned = unsignedKeys.has(r.key)
          return (
            <label key={r.key} className="recipient-chip" style={{ ['--c' as string]: recipientColor(n) }} data-needs-signature={unsigned || undefined}>
              <input type="radio" name="field-recipient" checked={recipient?.key === r.key} onChange={() => props.onPick(r.key)} />
              <span className="dot" aria-hidden="true" />
              <span className="recipient-chip-text">
                <span className="recipient-chip-name">{r.name.trim() || r.email.trim() || t('recipients.label', { n: n + 1 })}</span>
                <span className="muted small">{tn('fields.count', count)}</span>
                {unsigned && (
                  <span className={'small chip-warning' + (problems.some((p) => p.target === r.key) ? ' text-error' : '')}>
                    <Icon name="alert" size={12} />
                    {t('fields.needsSignature')}
                  </span>
                )}
              </span>
            </label>
          )
        })}
      </div>
    </div>
  )
}

/** The field types: a click arms one (or, by keyboard, adds it to the current page), a drag places it. */
export function FieldPalette(props: {
  armed: FieldType | null
  color: string | undefined
  onPointerDown: (e: ReactPointerEvent, type: FieldType) => void
  onClick: (e: ReactMouseEvent, type: FieldType) => void
}) {
  const { armed } = props
  return (
    <div className="tool-section">
      <p className="label" id="field-types-label">
        {t('fields.types')}
      </p>
      <div className="palette" role="group" aria-labelledby="field-types-label" aria-describedby="palette-help">
        {FIELD_TYPES.map((type) => (
          <button
            key={type}
            type="button"
            className="palette-item"
            data-type={type}
            aria-pressed={armed === type}
            style={{ ['--c' as string]: props.color }}
            onPointerDown={(e) => props.onPointerDown(e, type)}
            onClick={(e) => props.onClick(e, type)}
          >
            <Icon name={type} />
            {t(`field.${type}`)}
          </button>
        ))}
      </div>
      <p id="palette-help" className="muted small help">
        {armed ? (
          t('fields.placing', { type: t(`field.${armed}`) })
        ) : (
          <>
            <span className="help-wide">{t('fields.help')}</span>
            <span className="help-narrow">{t('fields.helpNarrow')}</span>
          </>
        )}
      </p>
    </div>
  )
}
