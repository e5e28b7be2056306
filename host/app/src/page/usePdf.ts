import { useEffect, useRef, useState } from 'react'
import type { Api } from './api.js'
import type { DraftItem } from '../editor/draft/model.js'
import { openPdf, type PDFDocumentProxy } from '../pdf/pdf.js'

/** The opened PDF of an item: the uploaded file, or the stored one downloaded with the token. */
export function usePdf(api: Api, item: DraftItem): { doc: PDFDocumentProxy | null; failed: boolean } {
  const [state, setState] = useState<{ doc: PDFDocumentProxy | null; failed: boolean }>({ doc: null, failed: false })
  useEffect(() => {
    let live = true
    const load = () => (item.file ? item.file.arrayBuffer() : api.download(`/envelope/item/${encodeURIComponent(item.id!)}/download`))
    openPdf(item.key, load).then(
      (doc) => live && setState({ doc, failed: false }),
      () => live && setState({ doc: null, failed: true }),
    )
    return () => {
      live = false
    }
  }, [api, item.key, item.file, item.id])
  return state
}

/**
 * Draws page `pageNumber` of `doc` into a canvas sized to its element, once the element is
 * within `near` of the viewport, and again when its width changes. Returns the page's aspect ratio.
 */
export function usePageCanvas(doc: PDFDocumentProxy | null, pageNumber: number, near = '600px') {
  const canvasRef = useRef<HTMLCanvasElement>(null)
  const [aspect, setAspect] = useState<number | null>(null)
  const [rendered, setRendered] = useState(false)

  useEffect(() => {
    const canvas = canvasRef.current
    if (!doc || !canvas) return
    let cancelled = false
    let task: { cancel(): void; promise: Promise<unknown> } | null = null
    let drawnWidth = 0
    const draw = async () => {
      const width = canvas.clientWidth
      if (!width || Math.abs(width - drawnWidth) < 2) return
      drawnWidth = width
      const page = await doc.getPage(pageNumber)
      if (cancelled) return
      const base = page.getViewport({ scale: 1 })
      setAspect(base.width / base.height)
      const scale = (width * Math.min(window.devicePixelRatio || 1, 2)) / base.width
      const viewport = page.getViewport({ scale })
      task?.cancel()
      const off = document.createElement('canvas')
      off.width = Math.round(viewport.width)
      off.height = Math.round(viewport.height)
      task = page.render({ canvas: off, viewport })
      try {
        await task.promise
      } catch {
        return
      }
      if (cancelled) return
      canvas.width = off.width
      canvas.height = off.height
      canvas.getContext('2d')!.drawImage(off, 0, 0)
      setRendered(true)
    }
    // Sizes first (cheap), pixels when the page comes near the viewport.
    doc.getPage(pageNumber).then((page) => {
      if (cancelled) return
      const base = page.getViewport({ scale: 1 })
      setAspect(base.width / base.height)
    })
    const visible = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void draw(), { rootMargin: near })
    const resized = new ResizeObserver(() => drawnWidth && void draw())
    visible.observe(canvas)
    resized.observe(canvas)
    return () => {
      cancelled = true
      task?.cancel()
      visible.disconnect()
      resized.disconnect()
    }
  }, [doc, pageNumber, near])

  return { canvasRef, aspect, rendered }
}
