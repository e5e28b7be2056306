import { useEffect, useRef, useState } from 'react'
import { buildEmbedUrl } from '../../../../../src/protocol/url.js'
import { consoleApi } from '../api.js'
import { consoleLanguage, ct } from '../i18n/index.js'
import { ErrorAlert, messageOf } from '../parts.js'

/**
 * A draft in the same editor the embed shows: the authoring page in a frame of this page, with a
 * short-lived token scoped to this one envelope that the console mints for the signed-in member
 * (it stops working when the session ends). The page's messages come through the same wire as a
 * customer's parent page hears them; a save reloads the envelope.
 */
export function Editor({ envelopeId, onSaved }: { envelopeId: string; onSaved: () => void }) {
  const [src, setSrc] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [height, setHeight] = useState(720)
  const frame = useRef<HTMLIFrameElement>(null)

  useEffect(() => {
    consoleApi<{ token: string }>('/documents/editor', { body: { envelopeId } }).then(
      ({ token }) =>
        setSrc(buildEmbedUrl({ host: location.origin, route: 'envelope.edit', id: envelopeId, token, options: { parentOrigin: location.origin, language: consoleLanguage() } })),
      (e) => setError(messageOf(e)),
    )
  }, [envelopeId])

  useEffect(() => {
    const on = (e: MessageEvent) => {
      if (e.source !== frame.current?.contentWindow || e.origin !== location.origin) return
      const data = e.data as { type?: string; height?: number }
      if (data?.type === 'embed-resize' && typeof data.height === 'number') setHeight(Math.max(480, Math.min(4000, data.height)))
      if (data?.type === 'envelope-updated') onSaved()
    }
    addEventListener('message', on)
    return () => removeEventListener('message', on)
  }, [onSaved])

  return (
    <section className="card stack docs-editor" aria-label={ct('documents.editor')}>
      <ErrorAlert error={error} />
      {src && <iframe ref={frame} src={src} title={ct('documents.editor')} style={{ height }} />}
    </section>
  )
}
