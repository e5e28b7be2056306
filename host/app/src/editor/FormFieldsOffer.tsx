import { t, tn } from '../i18n/index.js'
import type { DraftRecipient } from './draft/model.js'
import { ignoreFormFields, pendingOffer, takeFormFields } from './draft/form-fields.js'
import type { StepProps } from './steps.js'

/**
 * Asks once per file whether its own form fields should become fields: for the recipient fields
 * are being placed for; the inspector then gives any of them to someone else.
 */
export function FormFieldsOffer(props: Pick<StepProps, 'draft' | 'setDraft' | 'announce'> & { recipient: DraftRecipient | null; nameOf: (key: string) => string }) {
  const { draft, setDraft, announce, recipient } = props
  const item = pendingOffer(draft)
  if (!item || !recipient) return null
  const count = item.formFields!.length
  const who = props.nameOf(recipient.key)
  const use = () => {
    setDraft((d) => takeFormFields(d, item.key, recipient.key))
    announce(tn('formFields.used', count, { recipient: who }))
  }
  return (
    <section className="alert alert-info draft-offer" aria-labelledby={`offer-${item.key}`}>
      <p id={`offer-${item.key}`}>{tn('formFields.found', count, { name: item.title })}</p>
      <div className="draft-offer-actions">
        <button type="button" className="btn btn-primary btn-sm" onClick={use}>
          {t('formFields.use', { recipient: who })}
        </button>
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => setDraft((d) => ignoreFormFields(d, item.key))}>
          {t('formFields.ignore')}
        </button>
      </div>
    </section>
  )
}
