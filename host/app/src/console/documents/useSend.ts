import { useState } from 'react'
import { ApiFailure, v2 } from '../api.js'
import { consoleLanguage, ct } from '../i18n/index.js'
import { messageOf } from '../parts.js'
import { nameOf, type Envelope, type EnvelopeRecipient } from './types.js'

/** What the send refused (or will refuse): its words, the recipients it names, and what their rows say. */
export interface Refusal {
  text: string
  recipients: Set<number>
  row: string
}

/**
 * The review's Send: sends the envelope with the subject and message the review changed; a refused
 * send sends nothing and keeps the refusal, naming the recipients concerned.
 */
export function useSend(env: Envelope, change: { subject: string | null; message: string | null }, onSent: () => void) {
  const meta = env.documentMeta
  const [sending, setSending] = useState(false)
  // A role with no person yet is said before Send is pressed: the send would be refused.
  const [refusal, setRefusal] = useState<Refusal | null>(() => unaddressed(env))

  const send = async () => {
    setSending(true)
    setRefusal(null)
    try {
      // Only what the review changed goes with the send (and into its audit entry).
      const edited = {
        ...(change.subject !== (meta.subject ?? null) && { subject: change.subject }),
        ...(change.message !== (meta.message ?? null) && { message: change.message }),
      }
      await v2('/envelope/distribute', { body: { envelopeId: env.id, ...(Object.keys(edited).length && { meta: edited }) } })
      onSent()
    } catch (err) {
      setRefusal(refusalOf(err, env))
    } finally {
      setSending(false)
    }
  }

  return { sending, refusal, send }
}

/** The refusal that names `named`, in the console's words. */
function naming(named: EnvelopeRecipient[], text: 'send.noSignature' | 'send.noAddress', row: 'send.noSignatureRow' | 'send.noAddressRow'): Refusal {
  const names = new Intl.ListFormat(consoleLanguage(), { type: 'conjunction' }).format(named.map(nameOf))
  return { text: ct(text, { names }), recipients: new Set(named.map((r) => r.id)), row: ct(row) }
}

/** Roles with no person yet (a document made from a template), which sending refuses. */
function unaddressed(env: Envelope): Refusal | null {
  const roles = env.recipients.filter((r) => !r.email)
  return roles.length ? naming(roles, 'send.noAddress', 'send.noAddressRow') : null
}

const REFUSAL_WORDS = {
  MISSING_SIGNATURE_FIELD: ['send.noSignature', 'send.noSignatureRow'],
  RECIPIENT_WITHOUT_ADDRESS: ['send.noAddress', 'send.noAddressRow'],
} as const

/**
 * A refused send in the reader's words. A signer without a signature field is named: the refusal's
 * issues point at `recipients.{i}`, the envelope's recipients in the order they were added.
 */
function refusalOf(err: unknown, env: Envelope): Refusal {
  const words = err instanceof ApiFailure ? REFUSAL_WORDS[err.code as keyof typeof REFUSAL_WORDS] : undefined
  if (err instanceof ApiFailure && words) {
    // Issue paths are `recipients.N` (or `recipients.N.email`), N counting the recipients in the order they were added.
    const added = [...env.recipients].sort((a, b) => a.id - b.id)
    const named = (err.issues ?? []).flatMap((i) => {
      const at = /^recipients\.(\d+)(?:\.email)?$/.exec(Array.isArray(i.path) ? i.path.join('.') : String(i.path))
      const r = at ? added[Number(at[1])] : undefined
      return r ? [r] : []
    })
    if (named.length) return naming(named, words[0], words[1])
  }
  return { text: messageOf(err), recipients: new Set(), row: '' }
}
