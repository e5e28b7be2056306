import { useEffect, useRef, useState, type MutableRefObject } from 'react'
import { buildEmbedUrl } from '../../../../../src/protocol/url.js'
import { consoleApi } from '../api.js'
import { consoleLanguage, ct } from '../i18n/index.js'
import { ErrorAlert, messageOf } from '../parts.js'

/**
 * What the editor offers a member beyond an embed's defaults: each recipient's verification (the
 * access and action methods), which an embed offers only when its page turns it on. Every plan
 * and role may set it; the host checks each method where the recipient acts.
 */
const MEMBER_FEATURES = { recipients: { allowConfigureAuthOptions: true } }

/**
 * A draft in the same editor the embed shows: the authoring page in a frame of this page, with a
 * short-lived token scoped to this one envelope that the console mints for the signed-in member
 * (it stops working when the session ends). The page's messages come through the same wire as a
 * customer's parent page hears them; a save reloads the envelope. `saver` is given a function that
 * saves what the editor shows (resolves whether it was saved), so sending never drops an edit.
 */
export function Editor({ envelopeId, onSaved, saver }: { envelopeId: string; onSaved: () => void; saver: MutableRefObject<(() => Promise<boolean>) | null> }) {
  const [src, setSrc] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [height, setHeight] = useState(720)
  const frame = useRef<HTMLIFrameElement>(null)

  useEffect(() => {
    consoleApi('/documents/editor', { body: { envelopeId } }).then(
      ({ token }) =>
        setSrc(buildEmbedUrl({ host: location.origin, route: 'envelope.edit', id: envelopeId, token, options: { parentOrigin: location.origin, language: consoleLanguage(), features: MEMBER_FEATURES } })),
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

  useEffect(() => {
    saver.current = () =>
      new Promise<boolean>((resolve) => {
        const win = frame.current?.contentWindow
        if (!win) return resolve(true)
        const on = (e: MessageEvent) => {
          if (e.source !== win || e.origin !== location.origin || e.data?.type !== 'editor-save-result') return
          removeEventListener('message', on)
          resolve(e.data.saved === true)
        }
        addEventListener('message', on)
        win.postMessage({ type: 'editor-save' }, location.origin)
      })
    return () => void (saver.current = null)
  }, [saver])

  return (
    <section className="card stack docs-editor" aria-label={ct('documents.editor')}>
      <ErrorAlert error={error} />
      {src && <iframe ref={frame} src={src} title={ct('documents.editor')} style={{ height }} />}
    </section>
  )
}
