import { useEffect, useState } from 'react'
import { t } from '../i18n/index.js'
import { PAD_LINE } from './SignaturePad.js'
import { imageToPng, loadSignatureFont, strokesToPng, typedToPng, UPLOAD_TYPES, type OutputSize, type Stroke } from './signature.js'

/** The ways a signature is made: drawn on the pad, typed in the signature font, or a picture. */
export type SignatureMethod = 'draw' | 'type' | 'upload'

export const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase())
    .join('')
    .slice(0, 3)

/**
 * What the signature dialog holds while the recipient makes their image: each method keeps its
 * own work (switching tabs loses nothing), and `adopt` turns the chosen one into the field's PNG.
 */
export function useSignatureDraft(props: { kind: 'signature' | 'initials'; methods: SignatureMethod[]; name: string; size: OutputSize; onAdopt: (png: string) => void }) {
  const [method, setMethod] = useState<SignatureMethod>(props.methods[0]!)
  const [strokes, setStrokes] = useState<Stroke[]>([])
  const [typed, setTyped] = useState(props.kind === 'initials' ? initialsOf(props.name) : props.name)
  const [upload, setUpload] = useState<{ url: string; file: File } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [fontReady, setFontReady] = useState(false)

  useEffect(() => {
    loadSignatureFont().then(
      () => setFontReady(true),
      () => setFontReady(true),
    )
  }, [])
  useEffect(() => () => void (upload && URL.revokeObjectURL(upload.url)), [upload])

  const ready = method === 'draw' ? strokes.length > 0 : method === 'type' ? typed.trim() !== '' : upload !== null

  async function adopt() {
    if (!ready || busy) return
    setBusy(true)
    setError(null)
    try {
      const png =
        method === 'draw' ? strokesToPng(strokes, PAD_LINE, props.size) : method === 'type' ? await typedToPng(typed.trim(), props.size) : await imageToPng(upload!.file, props.size)
      props.onAdopt(png)
    } catch {
      setError(t('sign.signature.uploadUnreadable'))
      setBusy(false)
    }
  }

  function pick(file: File | undefined) {
    setError(null)
    if (!file) return
    if (!UPLOAD_TYPES.includes(file.type)) {
      setError(t('sign.signature.uploadType'))
      return
    }
    setUpload({ url: URL.createObjectURL(file), file })
  }

  return { method, setMethod, strokes, setStrokes, typed, setTyped, upload, error, busy, fontReady, ready, adopt, pick }
}
