import { useEffect, useRef, type PointerEvent } from 'react'
import { drawStrokes, type Point, type Stroke } from './signature.js'

/** The pen's width in CSS pixels on the pad. */
export const PAD_LINE = 2.6

/**
 * A drawing surface for mouse, pen and touch (Pointer Events, `touch-action: none`). Strokes
 * are kept as points in CSS pixels, so the pad redraws sharply at any size and the export
 * can trim and scale them without losing anything.
 */
export function SignaturePad(props: { strokes: Stroke[]; onChange: (strokes: Stroke[]) => void; label: string; describedBy?: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null)
  const strokes = useRef<Stroke[]>(props.strokes)
  const current = useRef<{ id: number; stroke: Stroke } | null>(null)
  const frame = useRef(0)

  const paint = () => {
    frame.current = 0
    const canvas = canvasRef.current
    if (!canvas) return
    const dpr = Math.min(window.devicePixelRatio || 1, 3)
    const w = canvas.clientWidth
    const h = canvas.clientHeight
    if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
      canvas.width = Math.round(w * dpr)
      canvas.height = Math.round(h * dpr)
    }
    const ctx = canvas.getContext('2d')!
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0)
    ctx.clearRect(0, 0, w, h)
    drawStrokes(ctx, current.current ? [...strokes.current, current.current.stroke] : strokes.current, PAD_LINE)
  }
  const schedule = () => {
    if (!frame.current) frame.current = requestAnimationFrame(paint)
  }

  // Cleared or replaced from outside (the Clear button).
  useEffect(() => {
    strokes.current = props.strokes
    schedule()
  }, [props.strokes])

  useEffect(() => {
    const canvas = canvasRef.current!
    const resized = new ResizeObserver(schedule)
    resized.observe(canvas)
    return () => {
      resized.disconnect()
      cancelAnimationFrame(frame.current)
    }
  }, [])

  function point(e: { clientX: number; clientY: number; pressure: number; pointerType: string }): Point {
    const r = canvasRef.current!.getBoundingClientRect()
    // Mouse and most touch screens report 0 or 0.5 for pressure: draw those evenly.
    const p = e.pointerType === 'pen' && e.pressure > 0 ? e.pressure : 0.5
    return { x: e.clientX - r.left, y: e.clientY - r.top, p }
  }

  function down(e: PointerEvent<HTMLCanvasElement>) {
    if (e.pointerType === 'mouse' && e.button !== 0) return
    if (current.current) return // a second finger does not start a second line
    e.preventDefault()
    e.currentTarget.setPointerCapture(e.pointerId)
    current.current = { id: e.pointerId, stroke: [point(e)] }
    schedule()
  }
  function move(e: PointerEvent<HTMLCanvasElement>) {
    const c = current.current
    if (!c || c.id !== e.pointerId) return
    const events = typeof e.nativeEvent.getCoalescedEvents === 'function' ? e.nativeEvent.getCoalescedEvents() : []
    for (const ev of events.length ? events : [e.nativeEvent]) {
      const pt = point(ev)
      const last = c.stroke[c.stroke.length - 1]!
      // Points closer than a pixel add jitter, not shape.
      if (Math.hypot(pt.x - last.x, pt.y - last.y) >= 1.2) c.stroke.push(pt)
    }
    schedule()
  }
  function up(e: PointerEvent<HTMLCanvasElement>) {
    const c = current.current
    if (!c || c.id !== e.pointerId) return
    current.current = null
    strokes.current = [...strokes.current, c.stroke]
    props.onChange(strokes.current)
    schedule()
  }

  return (
    <canvas
      ref={canvasRef}
      className="signature-pad"
      role="img"
      aria-label={props.label}
      aria-describedby={props.describedBy}
      data-testid="signature-pad"
      onPointerDown={down}
      onPointerMove={move}
      onPointerUp={up}
      onPointerCancel={up}
    />
  )
}
