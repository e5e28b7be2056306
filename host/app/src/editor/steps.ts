import type { Problem, Draft, StepId } from './draft/model.js'
import type { EditorFeatures } from '../page/features.js'
import type { Session } from './session.js'

export type SetDraft = (update: (d: Draft) => Draft) => void

/** Props every step receives. */
export interface StepProps {
  session: Session
  /** What the embedding page lets the user configure (features.ts). */
  features: EditorFeatures
  draft: Draft
  setDraft: SetDraft
  /** Problems to show inline (after a failed Create/Save). */
  problems: Problem[]
  /** Page count of each file read so far, by item key. */
  pageCounts: Record<string, number>
  onPages: (itemKey: string, count: number) => void
  /** Says something to screen readers. */
  announce: (text: string) => void
  goTo: (step: StepId) => void
}

/** Recipients are told apart by colour everywhere (fields, chips): a palette of custom properties. */
export const recipientColor = (index: number) => `var(--recipient${(index % 8) + 1})`
