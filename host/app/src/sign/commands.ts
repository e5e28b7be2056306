/**
 * The signing page's answers to its parent's commands (the `ref` handle of EmbedSignDocument and
 * EmbedDirectTemplate): `nextField`, `setZoom`, `download`. They are registered once, before the
 * first render, so the page's ready message announces them whatever it shows; each acts on the
 * screen shown at the moment and refuses what that screen does not offer.
 */
import { useEffect } from 'react'
import { downloadName, type SigningFieldTarget } from '../../../../src/protocol/index.js'
import type { Api } from '../page/api.js'
import { CommandRefusal, onCommand } from '../page/bridge.js'
import { downloadItem, type SigningSession } from './session.js'

/** What the document screen lends the commands while it is shown (SignDocument). */
export interface DocumentControls {
  /** Moves to and focuses the next field still to fill: which one, or null when none is left. */
  nextField(): SigningFieldTarget | null
  /** Sets the zoom of the pages (1 = 100%). */
  setZoom(zoom: number): void
}

/** The files the screen shown offers to download: the originals, or the sealed ones once the document is complete. */
export type DownloadOffer = { api: Api; session: SigningSession; version: 'original' | 'signed' }

/** The zoom the page's own buttons allow, in percent. */
export const ZOOM_RANGE = [100, 300] as const

const shown: { document: DocumentControls | null; offer: DownloadOffer | null } = { document: null, offer: null }

const refuse = (message: string) => new CommandRefusal('REFUSED', message)

function documentShown(): DocumentControls {
  if (!shown.document) throw refuse('no document to fill in is shown now')
  return shown.document
}

/** Registers the three commands for this window (the signing page, once per load). */
export function registerSigningCommands(): void {
  onCommand('nextField', () => documentShown().nextField())
  onCommand('setZoom', (percent: unknown) => {
    const [min, max] = ZOOM_RANGE
    if (typeof percent !== 'number' || !(percent >= min && percent <= max)) throw refuse(`the zoom is from ${min} to ${max} percent`)
    const set = Math.round(percent)
    documentShown().setZoom(set / 100)
    return set
  })
  onCommand('download', async () => {
    const offer = shown.offer
    if (!offer) throw refuse('nothing can be downloaded on this screen')
    const items = [...offer.session.envelope.items].sort((a, b) => a.order - b.order)
    try {
      for (const item of items) await downloadItem(offer.api, item, offer.version)
    } catch {
      throw refuse(offer.version === 'signed' ? 'the signed document is not ready yet' : 'the document could not be downloaded')
    }
    return items.map((item) => downloadName(item.title, offer.version))
  })
}

/** The document screen's controls, for the commands, while it is shown. */
export function useDocumentControls(controls: DocumentControls): void {
  useEffect(() => {
    shown.document = controls
    return () => void (shown.document === controls && (shown.document = null))
  })
}

/** What the screen shown offers to download (null: nothing), for the download command. */
export function useDownloadOffer(offer: DownloadOffer | null): void {
  useEffect(() => {
    shown.offer = offer
    return () => void (shown.offer = null)
  })
}
