import { PDFDocument } from '@cantoo/pdf-lib'
import { runHeavy } from '../workers/heavy.js'
import { stripActiveContent } from './active-content.js'
import { flattenForm } from './form-fields.js'
import { certificateDocument } from './certificate.js'
import { appendEvidence } from './evidence-pages.js'
import { withInflateBudget } from './inflate-budget.js'
import type { SealInput } from './seal-input.js'
import type { SealingKey } from './sealing-key.js'
import { signDocument, type SealOptions } from './sign-document.js'
import { stampFields } from './stamp.js'
import { embedTextFont } from './text-font.js'

export type { SealAuditEntry, SealField, SealInput, SealRecipient } from './seal-input.js'
export type { SealOptions }

/** Longest a sealing may take (all its files) before its thread is stopped. */
const SEAL_TIMEOUT_MS = 120_000
const sealFailed = (why: string) => new Error(`sealing failed: ${why}`)

/** Each item's sealed PDF, in the order of input.items. Runs in a heavy-work thread (workers/heavy.ts). */
export function sealEnvelope(input: SealInput, key: SealingKey, options: SealOptions = {}): Promise<{ itemId: string; pdf: Uint8Array }[]> {
  return runHeavy('seal', { input, key, options }, { failure: sealFailed, timeoutMs: SEAL_TIMEOUT_MS })
}

/** The certificate page(s) alone; sealed like the documents when a key is given. Runs in a heavy-work thread. */
export function certificatePdf(input: SealInput, key?: SealingKey, options: SealOptions = {}): Promise<Uint8Array> {
  return runHeavy('certificate', { input, key, options }, { failure: sealFailed, timeoutMs: SEAL_TIMEOUT_MS })
}

/** sealEnvelope's work, in this thread: every decode within the inflation budget, active content left out. */
export async function sealHere(input: SealInput, key: SealingKey, options: SealOptions = {}): Promise<{ itemId: string; pdf: Uint8Array }[]> {
  const sealed: { itemId: string; pdf: Uint8Array }[] = []
  // One file at a time: the work is CPU-bound, so interleaving would only hold more memory at once.
  for (const item of input.items) {
    const doc = await withInflateBudget(() => PDFDocument.load(item.pdf, { updateMetadata: false }))
    // Files stored before uploads were cleaned may still carry scripts: a sealed copy never does.
    stripActiveContent(doc)
    const fields = input.fields.filter((f) => f.envelopeItemId === item.id)
    // The file's own form is drawn into its pages (nothing in a sealed copy stays editable), but
    // for the form fields the envelope's own replace: their values are stamped there instead.
    flattenForm(doc, fields)
    // What this file will draw: its fields' values, then the certificate's and audit log's text.
    const font = await embedTextFont(doc, input.meta?.language, [fields, input.envelope, input.items.map((i) => i.title), input.recipients, input.auditLog])
    await stampFields(doc, fields, font)
    await appendEvidence(doc, input, font, key.source === 'database')
    sealed.push({ itemId: item.id, pdf: await signDocument(doc, key, options) })
  }
  return sealed
}

/** certificatePdf's work, in this thread. */
export async function certificateHere(input: SealInput, key?: SealingKey, options: SealOptions = {}): Promise<Uint8Array> {
  const doc = await certificateDocument(input, key?.source === 'database')
  return key ? signDocument(doc, key, options) : doc.save()
}

export { signDocument }
