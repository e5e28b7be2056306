import { useEffect, useId, useState, type ReactNode } from 'react'
import type { Api } from '../page/api.js'
import { t } from '../i18n/index.js'
import { openPdf, type PDFDocumentProxy } from '../pdf/pdf.js'
import { Icon } from '../page/icons.js'
import { usePageCanvas } from '../page/usePdf.js'
import { downloadItem, type SigningSession } from './session.js'

type Item = SigningSession['envelope']['items'][number]

function usePdfDoc(api: Api, item: Item) {
  const [state, setState] = useState<{ doc: PDFDocumentProxy | null; failed: boolean }>({ doc: null, failed: false })
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    let live = true
    setState({ doc: null, failed: false })
    openPdf(`sign:${item.id}`, () => api.download(`/item/${encodeURIComponent(item.id)}`)).then(
      (doc) => live && setState({ doc, failed: false }),
      () => live && setState({ doc: null, failed: true }),
    )
    return () => {
      live = false
    }
  }, [api, item.id, attempt])
  return { ...state, retry: () => setAttempt((n) => n + 1) }
}

/** One file of the envelope: its title, and all its pages with the fields on them. */
export function SignItem(props: { api: Api; item: Item; multiple: boolean; children: (page: number) => ReactNode }) {
  const { doc, failed, retry } = usePdfDoc(props.api, props.item)
  const pages = doc?.numPages ?? Math.max(props.item.pageCount, 1)
  const [busy, setBusy] = useState(false)
  const headingId = useId()
  return (
    <section className="item-pages sign-item" aria-labelledby={headingId}>
      <div className="sign-item-head">
        <h2 id={headingId} className="item-title">
          <Icon name="file" />
          <span className="sign-item-name">{props.item.title}</span>
        </h2>
        <button
          type="button"
          className="btn btn-sm"
          disabled={busy}
          onClick={() => {
            setBusy(true)
            downloadItem(props.api, props.item, 'original')
              .catch(() => {})
              .finally(() => setBusy(false))
          }}
          aria-label={t('sign.downloadOriginal', { title: props.item.title })}
        >
          <Icon name="arrowDown" />
          <span className="hide-narrow">{t('sign.download')}</span>
        </button>
      </div>
      {failed && (
        <div className="sign-inline-error" role="alert">
          <span>{t('sign.pdfFailed')}</span>
          <button type="button" className="btn btn-sm" onClick={retry}>
            {t('sign.retry')}
          </button>
        </div>
      )}
      {Array.from({ length: pages }, (_, i) => (
        <SignPage key={i} doc={doc} title={props.item.title} page={i + 1} total={pages} showTitle={props.multiple}>
          {props.children(i + 1)}
        </SignPage>
      ))}
    </section>
  )
}

function SignPage(props: { doc: PDFDocumentProxy | null; title: string; page: number; total: number; showTitle: boolean; children: ReactNode }) {
  const { canvasRef, aspect, rendered, near } = usePageCanvas(props.doc, props.page)
  return (
    <div className="page sign-page" data-page={props.page} style={{ aspectRatio: aspect ?? 0.7071 }} role="group" aria-label={t('fields.page', { page: props.page, total: props.total, title: props.title })}>
      <canvas ref={canvasRef} aria-hidden="true" />
      {!rendered && (
        <span className="page-loading" aria-hidden="true">
          {near && <span className="spinner" />}
        </span>
      )}
      {props.children}
      <span className="page-number" aria-hidden="true">
        {props.page} / {props.total}
      </span>
    </div>
  )
}
