// The editor's styles: its frame and sticky bars, then each step's.
import './shell.css'
import './files.css'
import './fields.css'
import './settings.css'
import './logic.css'
import { useCallback, useEffect, useMemo, useRef, useState, type MutableRefObject, type RefObject } from 'react'
import type { EmbedProblem } from '../../../../src/protocol/index.js'
import { report } from '../page/bridge.js'
import { editorFeatures } from '../page/features.js'
import { validate, type Draft, type StepId } from './draft/model.js'
import { draftKey, forgetDraft, keepDraft, storedDraft, type StoredDraft } from './draft/stored.js'
import { t } from '../i18n/index.js'
import type { Envelope } from '../page/types.js'
import type { Session } from './session.js'
import { DraftOffer, EditorTopBar, problemText, SaveAlert, StepFooter, StepNav } from './EditorParts.js'
import { FieldsStep } from './FieldsStep.js'
import { FilesStep } from './FilesStep.js'
import { focusInView, keepClearOf, reveal } from '../page/viewport.js'
import { RecipientsStep } from './RecipientsStep.js'
import { SettingsStep } from './SettingsStep.js'
import type { SetDraft, StepProps } from './steps.js'
import { useSave } from './useSave.js'

const ALL_STEPS: StepId[] = ['files', 'recipients', 'fields', 'settings']

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
  const [announcement, setAnnouncement] = useState('')
  const [pageCounts, setPageCounts] = useState<Record<string, number>>({})
  const onPages = useCallback((itemKey: string, count: number) => setPageCounts((c) => (c[itemKey] === count ? c : { ...c, [itemKey]: count })), [])
  const headingRef = useRef<HTMLHeadingElement>(null)
  const barRef = useRef<HTMLElement>(null)
  useEffect(() => keepClearOf(barRef.current!), [])
  const alertRef = useRef<HTMLDivElement>(null)

  const setDraft: SetDraft = useCallback((update) => setDraftState(update), [])
  const announce = useCallback((text: string) => setAnnouncement((prev) => (prev === text ? text + '\u00a0' : text)), [])
  const { problems, saving, saveError, refused, submit, submitRef } = useSave({ session, features, draft, base, pageCounts, steps, keptAt: key, setStep, onFinished, onFatal, onStale })

  // Problems disappear from view as the user fixes them.
  const visibleProblems = problems.length ? validate(draft, pageCounts).filter((p) => !p.warning && steps.includes(p.step)) : []

  const goTo = useCallback((s: StepId) => setStep(s), [])
  useStepInView(step, headingRef)

  // A new message after Create/Save is where the user looks next.
  useEffect(() => {
    if (saveError || problems.length) focusInView(alertRef.current)
  }, [saveError, problems])

  const index = steps.indexOf(step)
  useEffect(() => {
    registerSave(async () => !Array.isArray(await submitRef.current()))
    return () => registerSave(null)
  }, [registerSave, submitRef])

  const dirtyRef = useDirtyKept({ session, draft, base, offer, key, step })
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
  const problemMessages = [...new Set(visibleProblems.map(problemText))]
  const save = () => void submit()

  return (
    <div className="editor">
      <EditorTopBar barRef={barRef} draft={draft} heading={heading} docTitle={docTitle} saving={saving} primaryLabel={primaryLabel} onSave={save} />
      <StepNav steps={steps} step={step} problems={visibleProblems} refused={refused} onlyFields={onlyFields} onStep={setStep} />

      <main className="content">
        {offer && (
          <DraftOffer
            offer={offer}
            onRestore={() => {
              setBase(offer.base)
              setDraftState(offer.draft)
              setOffer(null)
              announce(t('draft.restored'))
            }}
            onDiscard={() => {
              forgetDraft(key)
              setOffer(null)
            }}
          />
        )}
        <h2 className="step-heading" tabIndex={-1} ref={headingRef}>
          {t(`step.${step}`)}
        </h2>
        {(problemMessages.length > 0 || saveError) && <SaveAlert alertRef={alertRef} saveError={saveError} problemMessages={problemMessages} />}
        {step === 'files' && <FilesStep {...stepProps} />}
        {step === 'recipients' && <RecipientsStep {...stepProps} />}
        {step === 'fields' && <FieldsStep {...stepProps} locked={onlyFields} />}
        {step === 'settings' && <SettingsStep {...stepProps} />}

        {steps.length > 1 && <StepFooter steps={steps} index={index} saving={saving} primaryLabel={primaryLabel} onStep={setStep} onSave={save} />}
      </main>
      <div className="sr-only" aria-live="polite" role="status">
        {announcement}
      </div>
    </div>
  )
}

/** A new step starts at the top, its heading focused and in the user's view (the parent's, with auto-height); not the first one shown. */
function useStepInView(step: StepId, headingRef: RefObject<HTMLHeadingElement | null>) {
  const firstRender = useRef(true)
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false
      return
    }
    window.scrollTo({ top: 0 })
    const heading = headingRef.current
    if (heading) {
      heading.focus({ preventScroll: true })
      reveal(heading)
    }
  }, [step, headingRef])
}

/**
 * Whether there are edits not saved yet: kept for a reload a moment after each edit (nothing kept
 * once nothing is unsaved; while the offer is open what was kept stays as it is), and the parent
 * hears of each step shown and of each change of it. Returns it as a ref, read when asked.
 */
function useDirtyKept(o: { session: Session; draft: Draft; base: Draft; offer: StoredDraft | null; key: string; step: StepId }) {
  const { session, draft, base, offer, key, step } = o
  const initial = useMemo(() => contentOf(session.draft), [session])
  const dirty = draft !== session.draft && contentOf(draft) !== initial
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
  return dirtyRef
}
