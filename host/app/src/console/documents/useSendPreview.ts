import { useEffect, useRef, useState } from 'react'
import type { SendPreview } from '../../../../shared/console-contract.js'
import { consoleApi } from '../api.js'
import { messageOf } from '../parts.js'
import type { Envelope } from './types.js'

/** How long typing rests before the preview is asked for again. */
const PREVIEW_DELAY_MS = 300

/**
 * The review's subject and message as typed, and the e-mails the service renders with them
 * (`POST /api/console/documents/{id}/send-preview`), asked for again once typing rests; `pending`
 * while an answer is awaited.
 */
export function useSendPreview(env: Envelope) {
  const meta = env.documentMeta
  const [subject, setSubject] = useState(meta.subject ?? '')
  const [message, setMessage] = useState(meta.message ?? '')
  const [preview, setPreview] = useState<SendPreview | null>(null)
  const [previewError, setPreviewError] = useState<string | null>(null)
  const [pending, setPending] = useState(true)

  // What is sent is what the preview shows: a blank subject or message is the standard one.
  const change = { subject: subject.trim() || null, message: message.trim() ? message : null }
  const first = useRef(true)
  useEffect(() => {
    let live = true
    setPending(true)
    const timer = setTimeout(
      () =>
        consoleApi(`/documents/${encodeURIComponent(env.id)}/send-preview`, { body: change }).then(
          (p) => live && (setPreview(p), setPreviewError(null), setPending(false)),
          (e) => live && (setPreviewError(messageOf(e)), setPending(false)),
        ),
      first.current ? 0 : PREVIEW_DELAY_MS,
    )
    first.current = false
    return () => {
      live = false
      clearTimeout(timer)
    }
    // `change` is made from these.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [env.id, change.subject, change.message])

  return { subject, setSubject, message, setMessage, change, preview, previewError, pending }
}

/** The preview as the review's mail section shows and edits it. */
export type SendPreviewState = ReturnType<typeof useSendPreview>
