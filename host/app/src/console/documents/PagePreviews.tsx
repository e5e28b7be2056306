import { useEffect, useId, useMemo, useRef, useState } from 'react'
import type { Field } from '../../../../../src/protocol/index.js'
import { byEditorOrder } from '../../editor/draft/model.js'
import { openPdf, type PDFDocumentProxy } from '../../pdf/pdf.js'
import { PageThumb, type ThumbField } from '../../page/PageThumb.js'
import { recipientColor } from '../../editor/steps.js'
import { usePageCanvas } from '../../page/usePdf.js'
import { v2Bytes } from '../api.js'
import { ct, formatDate } from '../i18n/index.js'
import { useModal } from '../modal.js'
import type { Envelope } from './types.js'

type Item = Envelope['envelopeItems'][number]
type Version = 'original' | 'signed'

/**
 * Thumbnails of every page of an envelope's files (the signed version once completed), drawn
 * with the editor's renderer: a file is fetched only when its row comes near the screen, and each
 * page drawn only when it does. The fields placed show on them in their recipient's colour, as in
 * the editor. A thumbnail opens the page larger, in a dialog with previous/next.
 */
export function PagePreviews({ env }: { env: Envelope & { fields?: Field[] } }) {
  const version: Version = env.status === 'COMPLETED' ? 'signed' : 'original'
  const [open, setOpen] = useState<{ item: Item; doc: PDFDocumentProxy; page: number } | null>(null)
  // On the sealed file the values are drawn in: boxes would hide them.
  const fields = useMemo(() => {
    if (version === 'signed') return []
    const colour = new Map([...env.recipients].sort(byEditorOrder).map((r, n) => [r.id, recipientColor(n)]))
    return (env.fields ?? []).map((f) => ({ item: f.envelopeItemId, page: f.page, id: f.id, x: f.positionX, y: f.positionY, w: f.width, h: f.height, color: colour.get(f.recipientId) ?? recipientColor(0) }))
  }, [env, version])
  return (
    <section className="card card-pad stack" aria-labelledby="docs-previews">
      <h2 id="docs-previews">{ct('documents.preview.title')}</h2>
      {env.purgedAt ? (
        <p className="muted">{ct('documents.download.purged', { when: formatDate(env.purgedAt) })}</p>
      ) : (
        <>
          {version === 'signed' && <p className="muted small">{ct('documents.preview.signed')}</p>}
          {env.envelopeItems.map((item) => (
            <ItemPages key={item.id} item={item} version={version} fields={fields.filter((f) => f.item === item.id)} onOpen={(doc, page) => setOpen({ item, doc, page })} />
          ))}
        </>
      )}
      {open && <PageDialog {...open} onPage={(page) => setOpen({ ...open, page })} onClose={() => setOpen(null)} />}
    </section>
  )
}

/** One file's pages: placeholders sized by its page count until the file, fetched once near the screen, is open. */
function ItemPages(props: { item: Item; version: Version; fields: (ThumbField & { page: number })[]; onOpen: (doc: PDFDocumentProxy, page: number) => void }) {
  const { item, version, onOpen } = props
  const ref = useRef<HTMLDivElement>(null)
  const [near, setNear] = useState(false)
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null)
  const [failed, setFailed] = useState(false)
  const headingId = useId()

  useEffect(() => {
    const el = ref.current
    if (!el || near) return
    const seen = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), { rootMargin: '300px' })
    seen.observe(el)
    return () => seen.disconnect()
  }, [near])
  useEffect(() => {
    if (!near) return
    let live = true
    openPdf(`console:${item.id}:${version}`, () => v2Bytes(`/envelope/item/${encodeURIComponent(item.id)}/download?version=${version}`)).then(
      (d) => live && setDoc(d),
      () => live && setFailed(true),
    )
    return () => {
      live = false
    }
  }, [near, item.id, version])

  const total = doc?.numPages ?? item.pageCount ?? 1
  return (
    <div ref={ref} className="docs-preview-item stack-sm">
      <h3 id={headingId} className="docs-preview-title">
        {item.title}
      </h3>
      {failed ? (
        <p className="muted small">{ct('documents.preview.failed')}</p>
      ) : (
        <ul className="docs-thumbs" aria-labelledby={headingId}>
          {Array.from({ length: total }, (_, i) => (
            <li key={i}>
              {doc ? (
                <button type="button" className="docs-thumb" aria-label={ct('documents.preview.open', { page: i + 1, total, title: item.title })} onClick={() => onOpen(doc, i + 1)}>
                  <PageThumb doc={doc} page={i + 1} fields={props.fields.filter((f) => f.page === i + 1)} />
                  <span className="docs-thumb-number" aria-hidden="true">
                    {i + 1}
                  </span>
                </button>
              ) : (
                <span className="docs-thumb">
                  <PageThumb doc={null} page={i + 1} fields={[]} />
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** The page larger, in a modal: the browser keeps focus inside, Escape closes, focus returns to the thumbnail. */
function PageDialog(props: { item: Item; doc: PDFDocumentProxy; page: number; onPage: (page: number) => void; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const { canvasRef, aspect } = usePageCanvas(props.doc, props.page)
  const total = props.doc.numPages

  useModal(ref, props.onClose)

  return (
    <dialog ref={ref} className="dialog docs-page-dialog" aria-labelledby={titleId} onMouseDown={(e) => e.target === e.currentTarget && props.onClose()}>
      <div className="dialog-box">
        <header className="dialog-head">
          <h2 id={titleId} className="dialog-title">
            {ct('documents.preview.dialog', { title: props.item.title, page: props.page, total })}
          </h2>
          <button type="button" className="btn btn-sm btn-secondary" onClick={() => props.onClose()}>
            {ct('documents.preview.close')}
          </button>
        </header>
        {/* Focusable: on a short screen the page scrolls, and the keyboard must reach all of it. */}
        <div className="dialog-body" tabIndex={0}>
          {/* Keyed by page: a fresh canvas for each, so the last page never shows under the next one's name. */}
          <div className="docs-page-large" key={props.page} style={{ aspectRatio: aspect ?? 0.7071, ['--aspect' as string]: aspect ?? 0.7071 }}>
            <canvas ref={canvasRef} role="img" aria-label={ct('documents.preview.dialog', { title: props.item.title, page: props.page, total })} />
          </div>
        </div>
        <footer className="dialog-foot">
          <button type="button" className="btn btn-secondary" disabled={props.page <= 1} onClick={() => props.onPage(props.page - 1)}>
            {ct('documents.preview.previous')}
          </button>
          <button type="button" className="btn btn-secondary" disabled={props.page >= total} onClick={() => props.onPage(props.page + 1)}>
            {ct('documents.preview.next')}
          </button>
        </footer>
      </div>
    </dialog>
  )
}
