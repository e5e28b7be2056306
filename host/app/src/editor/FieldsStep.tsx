import { useCallback, useEffect, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react'
import { makeField, signersWithoutSignature, updateField, type DraftField, type DraftItem } from './draft/model.js'
import { t, tn } from '../i18n/index.js'
import { FIELD_TYPES, type FieldType } from '../page/types.js'
import { recipientColor, type StepProps } from './steps.js'
import { FieldInspector } from './FieldInspector.js'
import { Icon } from '../page/icons.js'
import { PdfPage, type PageHandlers } from './PdfPage.js'
import { usePdf } from '../page/usePdf.js'
import { reveal, visibleBand } from '../page/viewport.js'

type PageRef = { itemKey: string; page: number }

/** Where the tools stick above the page and the inspector is a sheet below it (fields.css). */
const NARROW = '(max-width: 639px)'

/**
 * Brings a field into the part of the view that neither the sticky bars nor the inspector's sheet
 * cover: the page's scroll padding clears the top bar, the field's margin the tools stuck below it.
 */
function revealBetweenBars(field: HTMLElement) {
  const tools = document.querySelector<HTMLElement>('.tools')
  const sheet = document.querySelector<HTMLElement>('.inspector:not(.inspector-empty)')
  const viewTop = visibleBand()?.top ?? 0
  const toolsEnd = tools ? parseFloat(getComputedStyle(tools).top) - viewTop + tools.offsetHeight : 0
  const padding = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0
  field.style.scrollMarginTop = `${Math.max(toolsEnd - padding, 0) + 8}px`
  field.style.scrollMarginBottom = `${(sheet?.offsetHeight ?? 0) + 8}px`
  reveal(field)
}

export function FieldsStep(props: StepProps & { locked: boolean }) {
  const { session, draft, setDraft, announce, goTo, locked, problems, pageCounts, onPages } = props
  const [recipientKey, setRecipientKey] = useState<string | null>(draft.recipients[0]?.key ?? null)
  const recipient = draft.recipients.find((r) => r.key === recipientKey) ?? draft.recipients[0] ?? null
  const [armed, setArmed] = useState<FieldType | null>(null)
  const [selected, setSelected] = useState<string | null>(null)
  const [current, setCurrent] = useState<PageRef | null>(null)
  const [focusField, setFocusField] = useState<string | null>(null)
  const [ghost, setGhost] = useState<{ type: FieldType; x: number; y: number } | null>(null)
  const suppressClick = useRef(false)

  const currentPage = current && draft.items.some((i) => i.key === current.itemKey) ? current : draft.items[0] ? { itemKey: draft.items[0].key, page: 1 } : null

  // Latest values for the stable handlers below.
  const latest = useRef({ recipient, armed, draft })
  latest.current = { recipient, armed, draft }

  const place = useCallback(
    (type: FieldType, at: PageRef, cx: number, cy: number, focus: boolean) => {
      const r = latest.current.recipient
      if (!r) return
      const field = makeField({ type, itemKey: at.itemKey, recipientKey: r.key, page: at.page, cx, cy })
      setDraft((d) => ({ ...d, fields: [...d.fields, field] }))
      setSelected(field.key)
      setArmed(null)
      setCurrent(at)
      setFocusField(focus ? field.key : null)
      announce(t('fields.added', { type: t(`field.${type}`), page: at.page }))
    },
    [setDraft, announce],
  )

  const handlers: PageHandlers = useMemo(
    () => ({
      onPlace: (itemKey, page, cx, cy) => {
        const type = latest.current.armed
        if (!type) return false
        place(type, { itemKey, page }, cx, cy, true)
        return true
      },
      onCurrent: (itemKey, page) => setCurrent({ itemKey, page }),
      onSelect: (key) => setSelected(key),
      onChange: (key, patch) => {
        setDraft((d) => updateField(d, key, patch))
        // A field that changed page is mounted anew there: keep the focus on it.
        if (patch.page !== undefined || patch.itemKey !== undefined) setFocusField(key)
      },
      onDelete: (key) => {
        setDraft((d) => ({ ...d, fields: d.fields.filter((f) => f.key !== key) }))
        setSelected(null)
        announce(t('fields.deleted'))
      },
    }),
    [place, setDraft, announce],
  )

  // On a phone the inspector opens as a sheet at the bottom: the field it edits stays in view above it.
  useEffect(() => {
    if (!selected || !matchMedia(NARROW).matches) return
    const field = document.querySelector<HTMLElement>('.field-box[data-selected]')
    if (field) revealBetweenBars(field)
  }, [selected])

  useEffect(() => {
    if (!armed) return
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setArmed(null)
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [armed])

  /** Dragging a type from the palette onto a page places it where it is dropped. */
  function startDrag(e: ReactPointerEvent, type: FieldType) {
    if (e.button !== 0 || !recipient) return
    const sx = e.clientX
    const sy = e.clientY
    let dragging = false
    const move = (ev: PointerEvent) => {
      if (!dragging && Math.hypot(ev.clientX - sx, ev.clientY - sy) < 6) return
      dragging = true
      ev.preventDefault()
      setGhost({ type, x: ev.clientX, y: ev.clientY })
    }
    const up = (ev: PointerEvent) => {
      window.removeEventListener('pointermove', move)
      window.removeEventListener('pointerup', up)
      if (!dragging) return
      setGhost(null)
      suppressClick.current = true
      setTimeout(() => (suppressClick.current = false))
      const page = document.elementFromPoint(ev.clientX, ev.clientY)?.closest<HTMLElement>('[data-page]')
      if (!page) return
      const r = page.getBoundingClientRect()
      place(type, { itemKey: page.dataset.item!, page: Number(page.dataset.page) }, ((ev.clientX - r.left) / r.width) * 100, ((ev.clientY - r.top) / r.height) * 100, true)
    }
    window.addEventListener('pointermove', move)
    window.addEventListener('pointerup', up)
  }

  function onTypeClick(e: React.MouseEvent, type: FieldType) {
    if (suppressClick.current) return
    if (e.detail === 0 && currentPage) {
      // Keyboard: add to the current page straight away, staggered so fields do not stack.
      const count = draft.fields.filter((f) => f.itemKey === currentPage.itemKey && f.page === currentPage.page).length
      place(type, currentPage, 50, 15 + ((count * 9) % 72), true)
    } else {
      setArmed((a) => (a === type ? null : type))
    }
  }

  const colorIndex = useMemo(() => new Map(draft.recipients.map((r, n) => [r.key, n])), [draft.recipients])
  const colorOf = useCallback((key: string) => recipientColor(colorIndex.get(key) ?? 0), [colorIndex])
  const names = useMemo(() => new Map(draft.recipients.map((r) => [r.key, r.name.trim() || r.email.trim() || '?'])), [draft.recipients])
  const nameOf = useCallback((key: string) => names.get(key) ?? '?', [names])
  const selectedField = draft.fields.find((f) => f.key === selected) ?? null
  // Choosing whom new fields are for lets go of a field of someone else, so the inspector never
  // names the previous recipient beside the one just chosen.
  const pickRecipient = (key: string) => {
    setRecipientKey(key)
    if (selectedField && selectedField.recipientKey !== key) setSelected(null)
  }
  const unsignedKeys = useMemo(() => new Set(signersWithoutSignature(draft).map((r) => r.key)), [draft])

  if (!draft.items.length || !draft.recipients.length) {
    const noFiles = !draft.items.length
    return (
      <div className="empty-state card">
        <Icon name={noFiles ? 'file' : 'users'} size={28} />
        <p>{t(noFiles ? 'fields.noFiles' : 'fields.noRecipients')}</p>
        {!locked && (
          <button type="button" className="btn btn-secondary" onClick={() => goTo(noFiles ? 'files' : 'recipients')}>
            {t(noFiles ? 'fields.goFiles' : 'fields.goRecipients')}
          </button>
        )}
      </div>
    )
  }

  return (
    <div className="fields-layout">
      <aside className="tools">
        <div className="tool-section">
          <p className="label" id="recipient-picker-label">
            {t('fields.recipient')}
          </p>
          <div className="recipient-picker" role="radiogroup" aria-labelledby="recipient-picker-label">
            {draft.recipients.map((r, n) => {
              const count = draft.fields.filter((f) => f.recipientKey === r.key).length
              // Said as the user works, not only once Create fails.
              const unsigned = unsignedKeys.has(r.key)
              return (
                <label key={r.key} className="recipient-chip" style={{ ['--c' as string]: recipientColor(n) }} data-needs-signature={unsigned || undefined}>
                  <input type="radio" name="field-recipient" checked={recipient?.key === r.key} onChange={() => pickRecipient(r.key)} />
                  <span className="dot" aria-hidden="true" />
                  <span className="recipient-chip-text">
                    <span className="recipient-chip-name">{r.name.trim() || r.email.trim() || t('recipients.label', { n: n + 1 })}</span>
                    <span className="muted small">{tn('fields.count', count)}</span>
                    {unsigned && (
                      <span className={'small chip-warning' + (problems.some((p) => p.target === r.key) ? ' text-error' : '')}>
                        <Icon name="alert" size={12} />
                        {t('fields.needsSignature')}
                      </span>
                    )}
                  </span>
                </label>
              )
            })}
          </div>
        </div>

        <div className="tool-section">
          <p className="label" id="field-types-label">
            {t('fields.types')}
          </p>
          <div className="palette" role="group" aria-labelledby="field-types-label" aria-describedby="palette-help">
            {FIELD_TYPES.map((type) => (
              <button
                key={type}
                type="button"
                className="palette-item"
                data-type={type}
                aria-pressed={armed === type}
                style={{ ['--c' as string]: recipient ? colorOf(recipient.key) : undefined }}
                onPointerDown={(e) => startDrag(e, type)}
                onClick={(e) => onTypeClick(e, type)}
              >
                <Icon name={type} />
                {t(`field.${type}`)}
              </button>
            ))}
          </div>
          <p id="palette-help" className="muted small help">
            {armed ? (
              t('fields.placing', { type: t(`field.${armed}`) })
            ) : (
              <>
                <span className="help-wide">{t('fields.help')}</span>
                <span className="help-narrow">{t('fields.helpNarrow')}</span>
              </>
            )}
          </p>
        </div>

        <FieldInspector
          field={selectedField}
          draft={draft}
          invalid={!!selectedField && problems.some((p) => p.target === selectedField.key)}
          pages={draft.items.map((i) => ({ itemKey: i.key, title: i.title, count: pageCounts[i.key] ?? 0 }))}
          onChange={(patch) => selectedField && handlers.onChange(selectedField.key, patch)}
          onDelete={() => selectedField && handlers.onDelete(selectedField.key)}
        />
      </aside>

      <div className="pages" data-armed={armed || undefined}>
        <p id="field-help" className="sr-only">
          {t('fields.boxHelp')}
        </p>
        {draft.items.map((item) => (
          <ItemPages
            key={item.key}
            session={session}
            item={item}
            fields={draft.fields}
            colorOf={colorOf}
            nameOf={nameOf}
            selected={selected}
            focusField={focusField}
            armed={armed !== null}
            current={currentPage}
            handlers={handlers}
            onPages={onPages}
          />
        ))}
      </div>
      {ghost && (
        <div className="drag-ghost" style={{ left: ghost.x, top: ghost.y, ['--c' as string]: recipient ? colorOf(recipient.key) : undefined }} aria-hidden="true">
          <Icon name={ghost.type} size={14} />
          {t(`field.${ghost.type}`)}
        </div>
      )}
    </div>
  )
}

function ItemPages(props: {
  session: StepProps['session']
  item: DraftItem
  fields: DraftField[]
  colorOf: (key: string) => string
  nameOf: (key: string) => string
  selected: string | null
  focusField: string | null
  armed: boolean
  current: PageRef | null
  handlers: PageHandlers
  onPages: (itemKey: string, count: number) => void
}) {
  const { item, onPages } = props
  const { doc, failed } = usePdf(props.session.api, item)
  useEffect(() => {
    if (doc) onPages(item.key, doc.numPages)
  }, [doc, item.key, onPages])
  return (
    <section className="item-pages" aria-label={item.title}>
      <h3 className="item-title">
        <Icon name="file" />
        {item.title}
        {doc && <span className="muted small">{tn('files.pages', doc.numPages)}</span>}
      </h3>
      {failed && <p className="alert alert-error">{t('files.unreadable')}</p>}
      {!doc && !failed && (
        <div className="page page-placeholder" aria-busy="true">
          <span className="page-loading">
            <span className="spinner" />
            <span className="sr-only">{t('fields.pageLoading')}</span>
          </span>
        </div>
      )}
      {doc &&
        Array.from({ length: doc.numPages }, (_, n) => n + 1).map((page) => (
          <PdfPage
            key={page}
            doc={doc}
            item={item}
            page={page}
            fields={props.fields.filter((f) => f.itemKey === item.key && f.page === page)}
            colorOf={props.colorOf}
            nameOf={props.nameOf}
            selected={props.selected}
            focusField={props.focusField}
            armed={props.armed}
            current={props.current?.itemKey === item.key && props.current.page === page}
            handlers={props.handlers}
          />
        ))}
    </section>
  )
}
