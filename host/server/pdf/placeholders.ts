import type { Queryable } from '../db/index.js'
import { ApiError, issue, type ApiIssue } from '../errors.js'
import { runHeavy } from '../workers/heavy.js'
import type { FieldPlacement } from '../domain/common/inputs.js'
import { readFile, replaceItemFile } from '../domain/item/files.js'
import type { ItemRow } from '../domain/common/rows.js'
import { findTexts, type Hit } from './text.js'

export interface PlaceholderEntry {
  recipientId: number
  envelopeItemId?: string | undefined
  type: string
  placeholder: string
  width?: number | undefined
  height?: number | undefined
  matchAll?: boolean | undefined
  fieldMeta?: Record<string, unknown> | null | undefined
}

/**
 * Places placeholder-form fields where their text occurs (first occurrence, or all with matchAll),
 * sized as the text unless width/height are given, and covers each found text with a white
 * rectangle in a new file for the item, so it is absent from the signed document.
 */
export async function placeFromPlaceholders(
  tx: Queryable,
  items: ItemRow[],
  entries: { index: number; value: PlaceholderEntry }[],
): Promise<{ fields: { index: number; field: FieldPlacement }[]; issues: ApiIssue[] }> {
  const fields: { index: number; field: FieldPlacement }[] = []
  const issues: ApiIssue[] = []
  const whiteouts = new Map<string, Hit[]>()
  const cache = new Map<string, Uint8Array>()
  // One parse per item for all the placeholders asked on it.
  const searched = new Map<string, Map<string, Hit[]>>()
  const itemOf = (v: PlaceholderEntry) => items.find((i) => i.id === (v.envelopeItemId ?? items[0]!.id))
  for (const { value: v } of entries) {
    const item = itemOf(v)
    if (!item || searched.has(item.id)) continue
    cache.set(item.id, (await readFile(tx, item.document_data_id)).bytes)
    const texts = [...new Set(entries.filter((x) => itemOf(x.value) === item).map((x) => x.value.placeholder))]
    searched.set(item.id, await findTexts(cache.get(item.id)!, texts))
  }
  for (const { index, value: v } of entries) {
    const item = itemOf(v)
    if (!item) {
      issues.push(issue(['data', index, 'envelopeItemId'], 'Envelope item not found in this envelope'))
      continue
    }
    const hits = searched.get(item.id)!.get(v.placeholder)!
    if (!hits.length) {
      issues.push(issue(['data', index, 'placeholder'], `Placeholder text ${JSON.stringify(v.placeholder)} not found in ${item.title}`))
      continue
    }
    for (const hit of v.matchAll ? hits : hits.slice(0, 1)) {
      const [x0, y0, x1, y1] = hit.pageBox
      const pw = x1 - x0
      const ph = y1 - y0
      const pct = (n: number) => Math.round(n * 1000) / 1000
      const width = v.width ?? pct((hit.w / pw) * 100)
      const height = v.height ?? pct((hit.h / ph) * 100)
      fields.push({
        index,
        field: {
          recipientId: v.recipientId,
          envelopeItemId: item.id,
          type: v.type,
          page: hit.page,
          positionX: Math.min(pct(((hit.x - x0) / pw) * 100), 100 - width),
          positionY: Math.min(Math.max(pct(((y1 - hit.y - hit.h) / ph) * 100), 0), 100 - height),
          width,
          height,
          fieldMeta: v.fieldMeta,
        },
      })
      whiteouts.set(item.id, [...(whiteouts.get(item.id) ?? []), hit])
    }
  }
  if (issues.length) return { fields, issues }
  for (const [itemId, hits] of whiteouts) {
    const boxes = hits.map((h) => ({ page: h.page, x: h.x, y: h.y, w: h.w, h: h.h }))
    const bytes = await runHeavy('whiteOut', { bytes: cache.get(itemId)!, boxes }, { failure: (why) => new ApiError(400, 'INVALID_PDF', `the placeholder text could not be covered: ${why}`) })
    // A new file for this item alone: copies made from it (use, duplicate, direct links) keep theirs.
    await replaceItemFile(tx, items.find((i) => i.id === itemId)!, bytes)
  }
  return { fields, issues }
}
