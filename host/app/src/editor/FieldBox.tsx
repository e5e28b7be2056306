import { memo, useEffect, useRef, type KeyboardEvent, type PointerEvent } from 'react'
import { clampGeometry, type DraftField } from './draft/model.js'
import { t } from '../i18n/index.js'
import { Icon } from '../page/icons.js'
import { focusInView } from '../page/viewport.js'

type Geometry = { x: number; y: number; w: number; h: number }

/** Arrow keys move by this many percent of the page; with Shift by the larger step. */
export const NUDGE = 0.5
export const NUDGE_LARGE = 5

/** One placed field: drag to move, drag the corner to resize, arrow keys to nudge. */
export const FieldBox = memo(function FieldBox(props: {
  field: DraftField
  color: string
  recipientName: string
  selected: boolean
  autoFocus: boolean
  onSelect: (key: string) => void
  onChange: (key: string, patch: Partial<DraftField>) => void
  onDelete: (key: string) => void
}) {
  const { field: f, onChange, onSelect, onDelete } = props
  const ref = useRef<HTMLDivElement>(null)
  const drag = useRef<{ mode: 'move' | 'resize'; sx: number; sy: number; g: Geometry; pw: number; ph: number; gx: number; gy: number } | null>(null)

  // A field just placed or moved to another page is brought whole into view, its handle too: through
  // the parent in an auto-height frame (the browser's own focus scroll would stop at the edge).
  useEffect(() => {
    if (props.autoFocus) focusInView(ref.current)
  }, [props.autoFocus])

  function begin(e: PointerEvent, mode: 'move' | 'resize') {
    if (e.button !== 0) return
    e.stopPropagation()
    e.preventDefault()
    // Under the pointer already: scrolling it into view would move it from under the pointer.
    ref.current?.focus({ preventScroll: true })
    onSelect(f.key)
    const page = ref.current!.parentElement!.getBoundingClientRect()
    const box = ref.current!.getBoundingClientRect()
    drag.current = {
      mode, sx: e.clientX, sy: e.clientY, g: { x: f.x, y: f.y, w: f.w, h: f.h }, pw: page.width, ph: page.height,
      gx: e.clientX - box.left, gy: e.clientY - box.top,
    }
    ref.current!.setPointerCapture(e.pointerId)
  }
  function move(e: PointerEvent) {
    const d = drag.current
    if (!d) return
    const dx = ((e.clientX - d.sx) / d.pw) * 100
    const dy = ((e.clientY - d.sy) / d.ph) * 100
    const g = d.mode === 'move' ? { ...d.g, x: d.g.x + dx, y: d.g.y + dy } : { ...d.g, w: d.g.w + dx, h: d.g.h + dy }
    onChange(f.key, clampGeometry(g))
  }
  /** A field dropped over another page (of any file) moves there, where it was let go. */
  function end(e: PointerEvent) {
    const d = drag.current
    drag.current = null
    if (!d || d.mode !== 'move' || e.type !== 'pointerup') return
    const el = ref.current!
    el.style.pointerEvents = 'none'
    const target = document.elementFromPoint(e.clientX, e.clientY)?.closest<HTMLElement>('[data-page]')
    el.style.pointerEvents = ''
    if (!target || target === el.parentElement) return
    const r = target.getBoundingClientRect()
    const g = clampGeometry({ x: ((e.clientX - d.gx - r.left) / r.width) * 100, y: ((e.clientY - d.gy - r.top) / r.height) * 100, w: f.w, h: f.h })
    onChange(f.key, { itemKey: target.dataset.item!, page: Number(target.dataset.page), ...g })
  }

  function onKeyDown(e: KeyboardEvent) {
    const arrows: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }
    const dir = arrows[e.key]
    if (dir) {
      e.preventDefault()
      const step = e.shiftKey ? NUDGE_LARGE : NUDGE
      const [dx, dy] = [dir[0] * step, dir[1] * step]
      const g = { x: f.x, y: f.y, w: f.w, h: f.h }
      onChange(f.key, clampGeometry(e.altKey ? { ...g, w: g.w + dx, h: g.h + dy } : { ...g, x: g.x + dx, y: g.y + dy }))
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault()
      onDelete(f.key)
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault()
      onSelect(f.key)
    }
  }

  const typeName = t(`field.${f.type}`)
  return (
    <div
      ref={ref}
      className="field-box"
      data-testid="field-box"
      data-type={f.type}
      data-selected={props.selected || undefined}
      style={{ left: `${f.x}%`, top: `${f.y}%`, width: `${f.w}%`, height: `${f.h}%`, ['--c' as string]: props.color }}
      role="button"
      tabIndex={0}
      aria-pressed={props.selected}
      aria-label={t('fields.boxLabel', { type: f.label || typeName, recipient: props.recipientName, page: f.page })}
      aria-describedby="field-help"
      title={`${f.label || typeName} · ${props.recipientName}`}
      onPointerDown={(e) => begin(e, 'move')}
      onPointerMove={move}
      onPointerUp={end}
      onPointerCancel={end}
      onClick={(e) => e.stopPropagation()}
      onFocus={() => onSelect(f.key)}
      onKeyDown={onKeyDown}
    >
      <span className="field-box-label">
        <Icon name={f.type} size={14} />
        <span>
          {f.label || typeName}
          {f.required && <span aria-hidden="true"> *</span>}
        </span>
      </span>
      {props.selected && (
        <>
          {/* A mouse shortcut inside the field, not a control of its own (a control inside the field's
              role=button would be nested): keyboards use Delete, the inspector has its own button. */}
          <span
            className="field-box-delete"
            aria-hidden="true"
            title={t('fields.delete')}
            onPointerDown={(e) => e.stopPropagation()}
            onClick={(e) => {
              e.stopPropagation()
              onDelete(f.key)
            }}
          >
            <Icon name="x" size={12} />
          </span>
          <span className="field-box-handle" aria-hidden="true" onPointerDown={(e) => begin(e, 'resize')} />
        </>
      )}
    </div>
  )
})
