import type { KeyboardEvent, MouseEvent } from 'react'
import type { DraftField, DraftItem } from './draft/model.js'
import { t } from '../i18n/index.js'
import type { PDFDocumentProxy } from '../pdf/pdf.js'
import { FieldBox } from './FieldBox.js'
import { usePageCanvas } from '../page/usePdf.js'

export interface PageHandlers {
  /** Place the armed field type at (cx, cy) percent of this page; null when nothing is armed. */
  onPlace: (itemKey: string, page: number, cx: number, cy: number) => boolean
  onCurrent: (itemKey: string, page: number) => void
  onSelect: (key: string | null) => void
  onChange: (key: string, patch: Partial<DraftField>) => void
  onDelete: (key: string) => void
}

/** One rendered page with the fields placed on it. Geometry is percent, so it scales freely. */
export function PdfPage(props: {
  doc: PDFDocumentProxy
  item: DraftItem
  page: number
  fields: DraftField[]
  colorOf: (recipientKey: string) => string
  nameOf: (recipientKey: string) => string
  selected: string | null
  focusField: string | null
  armed: boolean
  current: boolean
  handlers: PageHandlers
}) {
  const { item, page, handlers: h } = props
  const { canvasRef, aspect, rendered, near } = usePageCanvas(props.doc, page)

  const onBackground = (e: { target: EventTarget; currentTarget: EventTarget }) =>
    e.target === e.currentTarget || e.target === canvasRef.current

  function onClick(e: MouseEvent<HTMLDivElement>) {
    if (!onBackground(e)) return
    h.onCurrent(item.key, page)
    const r = e.currentTarget.getBoundingClientRect()
    if (!h.onPlace(item.key, page, ((e.clientX - r.left) / r.width) * 100, ((e.clientY - r.top) / r.height) * 100)) h.onSelect(null)
  }
  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    if (e.target !== e.currentTarget || (e.key !== 'Enter' && e.key !== ' ')) return
    e.preventDefault()
    h.onPlace(item.key, page, 50, 50)
  }

  return (
    <div
      className="page"
      data-testid="page"
      data-item={item.key}
      data-page={page}
      data-armed={props.armed || undefined}
      data-current={props.current || undefined}
      style={{ aspectRatio: aspect ?? 0.7071 }}
      role="group"
      tabIndex={0}
      aria-label={t('fields.page', { page, total: props.doc.numPages, title: item.title })}
      onClick={onClick}
      onKeyDown={onKeyDown}
      onFocus={(e) => e.target === e.currentTarget && h.onCurrent(item.key, page)}
    >
      <canvas ref={canvasRef} aria-hidden="true" />
      {!rendered && (
        <span className="page-loading" aria-hidden="true">
          {near && <span className="spinner" />}
        </span>
      )}
      {props.fields.map((f) => (
        <FieldBox
          key={f.key}
          field={f}
          color={props.colorOf(f.recipientKey)}
          recipientName={props.nameOf(f.recipientKey)}
          selected={props.selected === f.key}
          autoFocus={props.focusField === f.key}
          onSelect={h.onSelect}
          onChange={h.onChange}
          onDelete={h.onDelete}
        />
      ))}
      <span className="page-number" aria-hidden="true">
        {page} / {props.doc.numPages}
      </span>
    </div>
  )
}
