// The editor's styles: its frame and sticky bars, then each step's.
import './shell.css'
import './files.css'
import './fields.css'
import './settings.css'
import { useCallback, useEffect, useMemo, useRef, useState, type MutableRefObject } from 'react'
import type { EmbedProblem } from '../../../../src/protocol/index.js'
import { ApiError } from '../page/api.js'
import { report } from '../page/bridge.js'
import { createEnvelope, saveEnvelope } from './draft/save.js'
import { editorFeatures } from '../page/features.js'
import { validate, type Draft, type Problem, type StepId } from './draft/model.js'
import { draftKey, forgetDraft, keepDraft, storedDraft, type StoredDraft } from './draft/stored.js'
import { language, t, type MessageKey } from '../i18n/index.js'
import type { Envelope } from '../page/types.js'
import type { Session } from './session.js'
import { FieldsStep } from './FieldsStep.js'
import { FilesStep } from './FilesStep.js'
import { Icon } from '../page/icons.js'
import { focusInView, keepClearOf, reveal } from '../page/viewport.js'
import { RecipientsStep } from './RecipientsStep.js'
import { SettingsStep } from './SettingsStep.js'
import type { SetDraft, StepProps } from './steps.js'

const ALL_STEPS: StepId[] = ['files', 'recipients', 'fields', 'settings']

/** The step where the user fixes what an API issue's path names (`recipients.0.email`, `title`, …). */
function stepOfPath(path: string | undefined): StepId | null {
  // Create names the payload's paths; update names its `data` (the envelope's own fields).
  const [head, , sub] = (path ?? '').replace(/^(payload|data)\./, '').split('.')
  if (head === 'recipients') return sub === 'fields' ? 'fields' : 'recipients'
  if (head === 'files' || head === 'envelopeItems') return 'files'
  if (head === 'title' || head === 'meta' || head === 'attachments') return 'settings'
  return null
}

/** What the parent learns of a refused save: each issue with its step and field where it names them. */
function problemsOf(e: unknown, text: string): EmbedProblem[] {
  if (!(e instanceof ApiError) || !e.issues.length) return [{ code: e instanceof ApiError ? e.code : 'INTERNAL', message: text }]
  return e.issues.map((i) => {
    const step = stepOfPath(i.path)
    const field = (i.path ?? '').replace(/^(payload|data)\./, '')
    return { ...(step && { step }), ...(field && { field }), code: e.code, message: i.message }
  })
}

/** What the page's commands reach in the open editor (App answers the parent's commands with it). */
export interface EditorControl {
  session: Session
  /** Saves as the page's button does: the saved envelope, or what stopped it. */
  save: () => Promise<Envelope | EmbedProblem[]>
  /** Shows `step`; false when this editor has no such step. */
  goTo: (step: StepId) => boolean
  dirty: () => boolean
  /** Drops the edits kept for a reload (the page is about to load the envelope afresh). */
  forget: () => void
}

/** A draft's content without its keys (which every load makes anew), to tell whether two drafts differ. */
export const contentOf = (d: Draft) => JSON.stringify(d, (k, v) => (k === 'key' || k === 'itemKey' || k === 'recipientKey' ? undefined : v instanceof File ? [v.name, v.size, v.lastModified] : v))

/** What a refused save says, in the user's language: each issue with the step and the field it names. */
function refusalOf(e: unknown): { text: string; issues: string[] } {
  if (!(e instanceof ApiError)) return { text: t('app.refused.plain', { code: 'INTERNAL' }), issues: [] }
  if (e.code === 'NETWORK' || e.code === 'MISSING_SIGNATURE_FIELD') return { text: t(`app.refused.${e.code}`), issues: [] }
  const issues = e.issues.map((i) => {
    const step = stepOfPath(i.path)
    const field = (i.path ?? '').replace(/^(payload|data)\./, '')
    return step ? t('app.refused.at', { step: t(`step.${step}`), field, message: i.message }) : i.message
  })
  return issues.length ? { text: t('app.refused.other', { code: e.code }), issues } : { text: t('app.refused.plain', { code: `${e.code}: ${e.message}` }), issues }
}

export function Editor(props: {
  session: Session
  onFinished: (session: Session, envelope: Envelope, draft: Draft) => void
  onFatal: (e: unknown) => void
  /** The envelope can no longer be changed (it was sent meanwhile): show it as it is now. */
  onStale: () => void
  /** Lets the page save on request (before sending); resolves whether it was saved. */
  registerSave: (save: (() => Promise<boolean>) | null) => void
  /** Filled with this editor's control while it is open. */
  control: MutableRefObject<EditorControl | null>
}) {
  const { session, onFinished, onFatal, onStale, registerSave, control } = props
  const onlyFields = session.envelope !== null && session.launch.options.onlyEditFields === true
  const isCreate = session.envelope === null
  const features = useMemo(() => editorFeatures(session.launch.options.features, { create: isCreate }), [session, isCreate])
  // The settings step always exists: it shows the title even when nothing else is configurable.
  const steps = onlyFields ? (['fields'] as StepId[]) : ALL_STEPS.filter((s) => s === 'settings' || features.steps[s])
  const [draft, setDraftState] = useState(session.draft)
  // Edits kept from an earlier load of this page (same token, same envelope), offered back; on
  // edit routes only while the envelope is still as they started from.
  const key = draftKey(session.launch.token ?? '', session.envelope?.id ?? null)
  const [offer, setOffer] = useState<StoredDraft | null>(() => {
    const kept = storedDraft(key)
    if (kept && session.envelope && contentOf(kept.base) !== contentOf(session.draft)) forgetDraft(key)
    else return kept && contentOf(kept.draft) !== contentOf(session.draft) ? kept : null
    return null
  })
  /** What the service holds, to save the edits against: as loaded, or as the restored edits started from. */
  const [base, setBase] = useState(session.draft)
  const [step, setStep] = useState<StepId>(steps[0]!)
  const [problems, setProblems] = useState<Problem[]>([])
  const [saving, setSaving] = useState(false)
  const [saveError, setSaveError] = useState<{ text: string; issues: string[] } | null>(null)
  /** The steps the service's refusal points at (from its issues' paths). */
  const [refused, setRefused] = useState<StepId[]>([])
  const [announcement, setAnnouncement] = useState('')
  const [pageCounts, setPageCounts] = useState<Record<string, number>>({})
  const onPages = useCallback((itemKey: string, count: number) => setPageCounts((c) => (c[itemKey] === count ? c : { ...c, [itemKey]: count })), [])
  const headingRef = useRef<HTMLHeadingElement>(null)
  const barRef = useRef<HTMLElement>(null)
  useEffect(() => keepClearOf(barRef.current!), [])
  const alertRef = useRef<HTMLDivElement>(null)
  const firstRender = useRef(true)

  const setDraft: SetDraft = useCallback((update) => setDraftState(update), [])
  const announce = useCallback((text: string) => setAnnouncement((prev) => (prev === text ? text + '\u00a0' : text)), [])

  // Problems disappear from view as the user fixes them.
  const visibleProblems = problems.length ? validate(draft, pageCounts).filter((p) => !p.warning && steps.includes(p.step)) : []

  const goTo = useCallback((s: StepId) => setStep(s), [])
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false
      return
    }
    // The new step starts at the top: there, in the user's view (the parent's, with auto-height).
    window.scrollTo({ top: 0 })
    const heading = headingRef.current
    if (heading) {
      heading.focus({ preventScroll: true })
      reveal(heading)
    }
  }, [step])

  // A new message after Create/Save is where the user looks next.
  useEffect(() => {
    if (saveError || problems.length) focusInView(alertRef.current)
  }, [saveError, problems])

  const index = steps.indexOf(step)

  /** Saves; tells the parent what stopped it, if anything (onSaveFailed). */
  async function submit(): Promise<Envelope | EmbedProblem[]> {
    const result = await attempt()
    if (Array.isArray(result)) report('save-failed', result)
    return result
  }

  async function attempt(): Promise<Envelope | EmbedProblem[]> {
    // A title the user may not change is the first file's name when there is none yet.
    const final = features.title || draft.settings.title.trim()
      ? draft
      : { ...draft, settings: { ...draft.settings, title: draft.items[0]?.title || t('app.untitled') } }
    // Warnings never stop it: only what the service would refuse does.
    const found = validate(final, pageCounts).filter((p) => !p.warning && steps.includes(p.step))
    setProblems(found)
    setSaveError(null)
    setRefused([])
    if (found.length) {
      setStep(found[0]!.step)
      return found.map((p) => ({ step: p.step, code: p.message.replace('problem.', ''), message: t(p.message) }))
    }
    setSaving(true)
    try {
      const externalId = session.launch.options.externalId ?? null
      let envelope: Envelope
      if (session.envelope) {
        await saveEnvelope(session.api, session.envelope.id, base, final)
        envelope = await session.api.get<Envelope>(`/envelope/${encodeURIComponent(session.envelope.id)}`)
      } else {
        envelope = await createEnvelope(session.api, final, externalId)
      }
      forgetDraft(key)
      onFinished(session, envelope, final)
      return envelope
    } catch (e) {
      setSaving(false)
      const refusal = refusalOf(e)
      const problems = problemsOf(e, refusal.text)
      if (e instanceof ApiError && e.status === 401) return (onFatal(e), problems)
      // Sent meanwhile: a save can only fail from now on, so the page shows the envelope as sent.
      if (e instanceof ApiError && e.code === 'ENVELOPE_NOT_EDITABLE') return (onStale(), problems)
      // The draft stays as it is: a short message in the user's language, nothing lost.
      if (e instanceof ApiError) setRefused(e.issues.map((i) => stepOfPath(i.path)).filter((x): x is StepId => x !== null))
      setSaveError(refusal)
      return problems
    }
  }
  const submitRef = useRef(submit)
  submitRef.current = submit
  useEffect(() => {
    registerSave(async () => !Array.isArray(await submitRef.current()))
    return () => registerSave(null)
  }, [registerSave])

  // The parent hears of each step shown and of whether there are edits not saved yet.
  const initial = useMemo(() => contentOf(session.draft), [session])
  const dirty = draft !== session.draft && contentOf(draft) !== initial
  // Kept for a reload a moment after each edit; nothing kept once nothing is unsaved. While the
  // offer is open, what was kept stays as it is.
  useEffect(() => {
    if (offer) return
    if (!dirty) return forgetDraft(key)
    const timer = setTimeout(() => void keepDraft(key, base, draft), 300)
    return () => clearTimeout(timer)
  }, [draft, dirty, offer, base, key])
  const dirtyRef = useRef(dirty)
  dirtyRef.current = dirty
  useEffect(() => report('step-change', step), [step])
  const reported = useRef(false)
  useEffect(() => {
    if (dirty !== reported.current) report('dirty-change', (reported.current = dirty))
  }, [dirty])
  // Leaving the editor (saved, or shown as sent) leaves nothing unsaved.
  useEffect(() => () => void (reported.current && report('dirty-change', false)), [])
  useEffect(() => {
    control.current = {
      session,
      save: () => submitRef.current(),
      goTo: (s) => steps.includes(s) && (setStep(s), true),
      dirty: () => dirtyRef.current,
      forget: () => forgetDraft(key),
    }
    return () => void (control.current = null)
  })

  const stepProps: StepProps = { session, features, draft, setDraft, problems: visibleProblems, announce, goTo, pageCounts, onPages }
  const heading = isCreate
    ? t(draft.type === 'TEMPLATE' ? 'app.newTemplate' : 'app.newDocument')
    : t(draft.type === 'TEMPLATE' ? 'app.editTemplate' : 'app.editDocument')
  const docTitle = draft.settings.title.trim() || t('app.untitled')
  useEffect(() => {
    document.title = `${heading} · ${docTitle}`
  }, [heading, docTitle])
  const primaryLabel = isCreate ? t(`app.create.${draft.type}`) : t('app.save')
  const problemMessages = [...new Set(visibleProblems.map((p) => p.message))]

  return (
    <div className="editor">
      <header className="topbar" ref={barRef}>
        <div className="topbar-title">
          <span className="badge">{t(draft.type === 'TEMPLATE' ? 'app.template' : 'app.document')}</span>
          <div>
            <p className="eyebrow">{heading}</p>
            <p className="doc-title">{docTitle}</p>
          </div>
        </div>
        <button type="button" className="btn btn-primary" onClick={() => void submit()} disabled={saving} aria-busy={saving}>
          {saving ? <span className="spinner spinner-sm" aria-hidden="true" /> : <Icon name="check" />}
          {saving ? t('app.saving') : primaryLabel}
        </button>
      </header>

      <nav className="steps" aria-label={t('app.steps')}>
        <ol>
          {steps.map((s, n) => {
            const hasProblem = visibleProblems.some((p) => p.step === s) || refused.includes(s)
            return (
              <li key={s}>
                <button
                  type="button"
                  className="step"
                  aria-current={s === step ? 'step' : undefined}
                  data-invalid={hasProblem || undefined}
                  onClick={() => setStep(s)}
                >
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
        {onlyFields && <p className="steps-note">{t('app.onlyFields')}</p>}
      </nav>

      <main className="content">
        {offer && (
          <section className="alert alert-info draft-offer" aria-labelledby="draft-offer-text">
            <p id="draft-offer-text">{t('draft.offer', { time: new Date(offer.at).toLocaleTimeString(language(), { hour: '2-digit', minute: '2-digit' }) })}</p>
            <div className="draft-offer-actions">
              <button
                type="button"
                className="btn btn-primary"
                onClick={() => {
                  setBase(offer.base)
                  setDraftState(offer.draft)
                  setOffer(null)
                  announce(t('draft.restored'))
                }}
              >
                {t('draft.restore')}
              </button>
              <button
                type="button"
                className="btn"
                onClick={() => {
                  forgetDraft(key)
                  setOffer(null)
                }}
              >
                {t('draft.discard')}
              </button>
            </div>
          </section>
        )}
        <h2 className="step-heading" tabIndex={-1} ref={headingRef}>
          {t(`step.${step}`)}
        </h2>
        {(problemMessages.length > 0 || saveError) && (
          <div className="alert alert-error" role="alert" tabIndex={-1} ref={alertRef}>
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
                  {problemMessages.map((m) => (
                    <li key={m}>{t(m)}</li>
                  ))}
                </ul>
              </>
            )}
          </div>
        )}
        {step === 'files' && <FilesStep {...stepProps} />}
        {step === 'recipients' && <RecipientsStep {...stepProps} />}
        {step === 'fields' && <FieldsStep {...stepProps} locked={onlyFields} />}
        {step === 'settings' && <SettingsStep {...stepProps} />}

        {steps.length > 1 && (
          <div className="step-footer">
            {index > 0 ? (
              <button type="button" className="btn" onClick={() => setStep(steps[index - 1]!)}>
                <Icon name="arrowLeft" />
                {t('app.back')}
              </button>
            ) : (
              <span />
            )}
            {index < steps.length - 1 ? (
              <button type="button" className="btn btn-secondary" onClick={() => setStep(steps[index + 1]!)}>
                {t('app.continue')}
                <Icon name="arrowRight" />
              </button>
            ) : (
              <button type="button" className="btn btn-primary" onClick={() => void submit()} disabled={saving}>
                {saving ? t('app.saving') : primaryLabel}
              </button>
            )}
          </div>
        )}
      </main>
      <div className="sr-only" aria-live="polite" role="status">
        {announcement}
      </div>
    </div>
  )
}
