import { useRef, useState } from 'react'
import type { EmbedProblem } from '../../../../src/protocol/index.js'
import { ApiError } from '../page/api.js'
import { report } from '../page/bridge.js'
import type { EditorFeatures } from '../page/features.js'
import type { Envelope } from '../page/types.js'
import { t } from '../i18n/index.js'
import { createEnvelope, saveEnvelope } from './draft/save.js'
import { validate, type Draft, type Problem, type StepId } from './draft/model.js'
import { forgetDraft } from './draft/stored.js'
import { problemText } from './EditorParts.js'
import type { Session } from './session.js'

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

/**
 * Create or Save: checks the draft, sends it, and says what stopped it (the problems found here,
 * or the service's refusal with the steps it points at); tells the parent of a failure.
 */
export function useSave(o: {
  session: Session
  features: EditorFeatures
  draft: Draft
  /** What the service holds, to save the edits against. */
  base: Draft
  pageCounts: Record<string, number>
  steps: StepId[]
  /** Where the draft is kept for a reload: forgotten once saved. */
  keptAt: string
  setStep: (step: StepId) => void
  onFinished: (session: Session, envelope: Envelope, draft: Draft) => void
  onFatal: (e: unknown) => void
  onStale: () => void
}) {
  const [problems, setProblems] = useState<Problem[]>([])
  const [saving, setSaving] = useState(false)
  const [saveError, setSaveError] = useState<{ text: string; issues: string[] } | null>(null)
  /** The steps the service's refusal points at (from its issues' paths). */
  const [refused, setRefused] = useState<StepId[]>([])

  async function attempt(): Promise<Envelope | EmbedProblem[]> {
    const { session, features, draft, base, pageCounts, steps } = o
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
      o.setStep(found[0]!.step)
      return found.map((p) => ({ step: p.step, code: p.logic ? 'logic' : p.message.replace('problem.', ''), message: problemText(p) }))
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
      forgetDraft(o.keptAt)
      o.onFinished(session, envelope, final)
      return envelope
    } catch (e) {
      setSaving(false)
      const refusal = refusalOf(e)
      const problems = problemsOf(e, refusal.text)
      if (e instanceof ApiError && e.status === 401) return (o.onFatal(e), problems)
      // Sent meanwhile: a save can only fail from now on, so the page shows the envelope as sent.
      if (e instanceof ApiError && e.code === 'ENVELOPE_NOT_EDITABLE') return (o.onStale(), problems)
      // The draft stays as it is: a short message in the user's language, nothing lost.
      if (e instanceof ApiError) setRefused(e.issues.map((i) => stepOfPath(i.path)).filter((x): x is StepId => x !== null))
      setSaveError(refusal)
      return problems
    }
  }

  /** Saves; tells the parent what stopped it, if anything (onSaveFailed). */
  async function submit(): Promise<Envelope | EmbedProblem[]> {
    const result = await attempt()
    if (Array.isArray(result)) report('save-failed', result)
    return result
  }
  // The latest submit, for callers that keep hold of it (the page's save command).
  const submitRef = useRef(submit)
  submitRef.current = submit

  return { problems, saving, saveError, refused, submit, submitRef }
}
