import type { Ref } from 'react'
import type { Draft, Problem, StepId } from './draft/model.js'
import type { StoredDraft } from './draft/stored.js'
import { language, t, type MessageKey } from '../i18n/index.js'
import { Icon } from '../page/icons.js'
import { logicMessage } from './logicWords.js'

/** The sticky bar: what is edited, and Create or Save. */
export function EditorTopBar(props: { barRef: Ref<HTMLElement>; draft: Draft; heading: string; docTitle: string; saving: boolean; primaryLabel: string; onSave: () => void }) {
  const { draft, saving } = props
  return (
    <header className="topbar" ref={props.barRef}>
      <div className="topbar-title">
        <span className="badge">{t(draft.type === 'TEMPLATE' ? 'app.template' : 'app.document')}</span>
        <div>
          <p className="eyebrow">{props.heading}</p>
          <p className="doc-title">{props.docTitle}</p>
        </div>
      </div>
      <button type="button" className="btn btn-primary" onClick={props.onSave} disabled={saving} aria-busy={saving}>
        {saving ? <span className="spinner spinner-sm" aria-hidden="true" /> : <Icon name="check" />}
        {saving ? t('app.saving') : props.primaryLabel}
      </button>
    </header>
  )
}

/** The steps, each marked where a problem or the service's refusal points. */
export function StepNav(props: { steps: StepId[]; step: StepId; problems: Problem[]; refused: StepId[]; onlyFields: boolean; onStep: (step: StepId) => void }) {
  const { steps, step } = props
  return (
    <nav className="steps" aria-label={t('app.steps')}>
      <ol>
        {steps.map((s, n) => {
          const hasProblem = props.problems.some((p) => p.step === s) || props.refused.includes(s)
          return (
            <li key={s}>
              <button type="button" className="step" aria-current={s === step ? 'step' : undefined} data-invalid={hasProblem || undefined} onClick={() => props.onStep(s)}>
                <span className="step-number" aria-hidden="true">
                  {hasProblem ? '!' : n + 1}
                </span>
                <span className="step-text">
                  <span className="step-label">{t(`step.${s}`)}</span>
                  <span className="step-hint">{t(`step.${s}.hint` as MessageKey)}</span>
                </span>
              </button>
            </li>
          )
        })}
      </ol>
      {props.onlyFields && <p className="steps-note">{t('app.onlyFields')}</p>}
    </nav>
  )
}

/** Edits kept from an earlier load of the page, offered back. */
export function DraftOffer(props: { offer: StoredDraft; onRestore: () => void; onDiscard: () => void }) {
  return (
    <section className="alert alert-info draft-offer" aria-labelledby="draft-offer-text">
      <p id="draft-offer-text">{t('draft.offer', { time: new Date(props.offer.at).toLocaleTimeString(language(), { hour: '2-digit', minute: '2-digit' }) })}</p>
      <div className="draft-offer-actions">
        <button type="button" className="btn btn-primary" onClick={props.onRestore}>
          {t('draft.restore')}
        </button>
        <button type="button" className="btn" onClick={props.onDiscard}>
          {t('draft.discard')}
        </button>
      </div>
    </section>
  )
}

/** A field as a problem names it: its label, else its type and page. */
export const fieldName = (f: { label: string; type: string; page: number }) =>
  f.label.trim() ? t('logic.named', { label: f.label.trim() }) : t('logic.unlabelled', { type: t(`field.${f.type}` as MessageKey), page: f.page })

/** What a problem says, in the user's language; a condition's or formula's names its field. */
export const problemText = (p: Problem) => (p.logic ? t('logic.problem', { field: fieldName(p.logic), message: logicMessage(p.logic.text) }) : t(p.message))

/** What stopped Create or Save: the service's refusal, or the problems found in the draft. */
export function SaveAlert(props: { alertRef: Ref<HTMLDivElement>; saveError: { text: string; issues: string[] } | null; problemMessages: string[] }) {
  const { saveError } = props
  return (
    <div className="alert alert-error" role="alert" tabIndex={-1} ref={props.alertRef}>
      {saveError ? (
        <>
          <p>{saveError.text}</p>
          {saveError.issues.length > 0 && (
            <ul>
              {saveError.issues.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          )}
        </>
      ) : (
        <>
          <p>{t('app.problems')}</p>
          <ul>
            {props.problemMessages.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </>
      )}
    </div>
  )
}

/** Back and Continue, and Create or Save on the last step. */
export function StepFooter(props: { steps: StepId[]; index: number; saving: boolean; primaryLabel: string; onStep: (step: StepId) => void; onSave: () => void }) {
  const { steps, index } = props
  return (
    <div className="step-footer">
      {index > 0 ? (
        <button type="button" className="btn" onClick={() => props.onStep(steps[index - 1]!)}>
          <Icon name="arrowLeft" />
          {t('app.back')}
        </button>
      ) : (
        <span />
      )}
      {index < steps.length - 1 ? (
        <button type="button" className="btn btn-secondary" onClick={() => props.onStep(steps[index + 1]!)}>
          {t('app.continue')}
          <Icon name="arrowRight" />
        </button>
      ) : (
        <button type="button" className="btn btn-primary" onClick={props.onSave} disabled={props.saving}>
          {props.saving ? t('app.saving') : props.primaryLabel}
        </button>
      )}
    </div>
  )
}
