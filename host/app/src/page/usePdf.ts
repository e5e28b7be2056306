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
 * within `margin` of the viewport, and again when its width changes. Returns the page's aspect
 * ratio, whether it is drawn, and whether it has come near: only then does it show that it is
 * loading, as a spinner far out of view would keep the browser painting frames for nothing (a
 * long document's every page, for as long as the page is open).
 */
export function usePageCanvas(doc: PDFDocumentProxy | null, pageNumber: number, margin = '600px') {
  const canvasRef = useRef<HTMLCanvasElement>(null)
  const [aspect, setAspect] = useState<number | null>(null)
  const [rendered, setRendered] = useState(false)
  const [near, setNear] = useState(false)

  useEffect(() => {
    const canvas = canvasRef.current
    if (!canvas || near) return
    const seen = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), { rootMargin: margin })
    seen.observe(canvas)
    return () => seen.disconnect()
  }, [near, margin])

  // Sizes first (cheap): the page's box has its shape before its pixels come.
  useEffect(() => {
    if (!doc) return
    let cancelled = false
    doc.getPage(pageNumber).then((page) => {
      if (cancelled) return
      const base = page.getViewport({ scale: 1 })
      setAspect(base.width / base.height)
    })
    return () => {
      cancelled = true
    }
  }, [doc, pageNumber])

  useEffect(() => {
    const canvas = canvasRef.current
    if (!doc || !canvas || !near) return
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
    // Its first size is reported at once; each later change of width draws it again.
    const resized = new ResizeObserver(() => void draw())
    resized.observe(canvas)
    return () => {
      cancelled = true
      task?.cancel()
      resized.disconnect()
    }
  }, [doc, pageNumber, near])

  return { canvasRef, aspect, rendered, near }
}
