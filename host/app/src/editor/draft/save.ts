/** Turns a Draft into API calls: one create request, or the minimal set of changes on edit. */
import type { Api } from '../../page/api.js'
import type { Envelope, EnvelopeItem, Field, Recipient } from '../../page/types.js'
import { fieldMeta, type Draft, type DraftField, type DraftSettings } from './model.js'

export function metaOf(s: DraftSettings) {
  return {
    subject: s.subject.trim() || null,
    message: s.message.trim() || null,
    timezone: s.timezone,
    dateFormat: s.dateFormat,
    redirectUrl: s.redirectUrl.trim() || null,
    signingOrder: s.signingOrder,
    allowDictateNextSigner: s.signingOrder === 'SEQUENTIAL' && s.allowDictateNextSigner,
    typedSignatureEnabled: s.typedSignatureEnabled,
    uploadSignatureEnabled: s.uploadSignatureEnabled,
    drawSignatureEnabled: s.drawSignatureEnabled,
    language: s.language,
    distributionMethod: s.distributionMethod,
  }
}

const geometry = (f: DraftField) => ({
  type: f.type, page: f.page, positionX: f.x, positionY: f.y, width: f.w, height: f.h, fieldMeta: fieldMeta(f),
})

/** The position of a recipient in the signing sequence, or null when everyone signs at once. */
const orderOf = (d: Draft, index: number) => (d.settings.signingOrder === 'SEQUENTIAL' ? index + 1 : null)

/** A recipient's verification as the API takes it: both lists, so a change to none is sent too. */
const authOf = (r: Draft['recipients'][number]) => ({ accessAuth: r.accessAuth, actionAuth: r.actionAuth })

/** POST /envelope/create with every file, recipient and field; then titles and attachments. */
export async function createEnvelope(api: Api, d: Draft, externalId: string | null): Promise<Envelope> {
  const index = new Map(d.items.map((i, n) => [i.key, n]))
  const payload = {
    type: d.type,
    title: d.settings.title.trim(),
    ...(externalId !== null ? { externalId } : {}),
    meta: metaOf(d.settings),
    ...d.auth,
    recipients: d.recipients.map((r, n) => ({
      email: r.email.trim(),
      name: r.name.trim(),
      role: r.role,
      ...(orderOf(d, n) !== null ? { signingOrder: orderOf(d, n) } : {}),
      ...authOf(r),
      fields: d.fields.filter((f) => f.recipientKey === r.key).map((f) => ({ identifier: index.get(f.itemKey)!, ...geometry(f) })),
    })),
  }
  const { id } = await api.postFiles<{ id: string }>('/envelope/create', payload, d.items.map((i) => i.file!))
  let env = await api.get<Envelope>(`/envelope/${encodeURIComponent(id)}`)
  // Items take their titles from the file names; apply renames made in the editor.
  const stored = [...env.envelopeItems].sort((a, b) => a.order - b.order)
  const renames = stored.flatMap((item, n) => {
    const title = d.items[n]?.title.trim()
    return title && title !== item.title ? [{ envelopeItemId: item.id, title }] : []
  })
  if (renames.length) {
    await api.post('/envelope/item/update-many', { envelopeId: id, data: renames })
    env = await api.get<Envelope>(`/envelope/${encodeURIComponent(id)}`)
  }
  for (const a of d.attachments)
    await api.post('/envelope/attachment/create', { envelopeId: id, data: { label: a.label.trim(), data: a.url.trim() } })
  return env
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/**
 * Applies the difference between `before` (as loaded) and `after` (as edited) to envelope
 * `envelopeId`. Order matters: items are created before others are deleted (an envelope
 * keeps at least one), recipients and items exist before fields refer to them, and fields
 * that went away with their recipient or item are not deleted twice.
 */
export async function saveEnvelope(api: Api, envelopeId: string, before: Draft, after: Draft): Promise<void> {
  // Envelope and settings.
  const titleChanged = before.settings.title.trim() !== after.settings.title.trim()
  const metaChanged = !same(metaOf(before.settings), metaOf(after.settings))
  const authChanged = !same(before.auth, after.auth)
  if (titleChanged || metaChanged || authChanged)
    await api.post('/envelope/update', {
      envelopeId,
      ...(titleChanged || authChanged ? { data: { ...(titleChanged ? { title: after.settings.title.trim() } : {}), ...(authChanged ? after.auth : {}) } } : {}),
      ...(metaChanged ? { meta: metaOf(after.settings) } : {}),
    })

  // Items.
  const itemId = new Map(after.items.filter((i) => i.id).map((i) => [i.key, i.id!]))
  const newItems = after.items.filter((i) => !i.id)
  if (newItems.length) {
    const { data } = await api.postFiles<{ data: EnvelopeItem[] }>('/envelope/item/create-many', { envelopeId }, newItems.map((i) => i.file!))
    newItems.forEach((i, n) => itemId.set(i.key, data[n]!.id))
  }
  const keptItems = new Set(after.items.map((i) => i.id).filter(Boolean))
  const deletedItems = before.items.filter((i) => !keptItems.has(i.id))
  for (const i of deletedItems) await api.post('/envelope/item/delete', { envelopeItemId: i.id })
  const itemsChanged =
    newItems.length > 0 || deletedItems.length > 0 ||
    after.items.some((i, n) => { const b = before.items.find((x) => x.key === i.key); return !b || b.title !== i.title || b.order !== n + 1 })
  if (itemsChanged)
    await api.post('/envelope/item/update-many', {
      envelopeId,
      data: after.items.map((i, n) => ({ envelopeItemId: itemId.get(i.key)!, order: n + 1, title: i.title.trim() })),
    })

  // Recipients.
  const recipientId = new Map(after.recipients.filter((r) => r.id !== null).map((r) => [r.key, r.id!]))
  const keptRecipients = new Set<number | null>(after.recipients.map((r) => r.id).filter((id) => id !== null))
  const deletedRecipients = before.recipients.filter((r) => !keptRecipients.has(r.id))
  for (const r of deletedRecipients) await api.post('/envelope/recipient/delete', { recipientId: r.id })
  const entry = (r: Draft['recipients'][number], n: number) => ({
    name: r.name.trim(), email: r.email.trim(), role: r.role,
    ...(orderOf(after, n) !== null ? { signingOrder: orderOf(after, n) } : {}),
    ...authOf(r),
  })
  const newRecipients = after.recipients.map((r, n) => [r, n] as const).filter(([r]) => r.id === null)
  if (newRecipients.length) {
    const { data } = await api.post<{ data: Recipient[] }>('/envelope/recipient/create-many', {
      envelopeId, data: newRecipients.map(([r, n]) => entry(r, n)),
    })
    newRecipients.forEach(([r], n) => recipientId.set(r.key, data[n]!.id))
  }
  const changedRecipients = after.recipients.flatMap((r, n) => {
    const b = before.recipients.find((x) => x.key === r.key)
    if (!b || r.id === null) return []
    const e = entry(r, n)
    const changed = b.name !== e.name || b.email !== e.email || b.role !== e.role ||
      String(b.accessAuth) !== String(r.accessAuth) || String(b.actionAuth) !== String(r.actionAuth) ||
      (orderOf(after, n) !== null && b.signingOrder !== orderOf(after, n))
    return changed ? [{ id: r.id, ...e }] : []
  })
  if (changedRecipients.length) await api.post('/envelope/recipient/update-many', { envelopeId, data: changedRecipients })

  // Fields.
  const goneRecipients = new Set(deletedRecipients.map((r) => r.key))
  const goneItems = new Set(deletedItems.map((i) => i.key))
  const keptFields = new Set<number | null>(after.fields.map((f) => f.id).filter((id) => id !== null))
  for (const f of before.fields)
    if (!keptFields.has(f.id) && !goneRecipients.has(f.recipientKey) && !goneItems.has(f.itemKey))
      await api.post('/envelope/field/delete', { fieldId: f.id })
  const target = (f: DraftField) => ({ recipientId: recipientId.get(f.recipientKey)!, envelopeItemId: itemId.get(f.itemKey)!, ...geometry(f) })
  // A field whose recipient or item was deleted was deleted with it: create it anew.
  const isNew = (f: DraftField) => {
    const b = before.fields.find((x) => x.key === f.key)
    return f.id === null || !b || goneRecipients.has(b.recipientKey) || goneItems.has(b.itemKey)
  }
  const created = after.fields.filter(isNew)
  if (created.length) await api.post<{ data: Field[] }>('/envelope/field/create-many', { envelopeId, data: created.map(target) })
  const changedFields = after.fields.flatMap((f) => {
    if (isNew(f)) return []
    const b = before.fields.find((x) => x.key === f.key)!
    return same(target(b), target(f)) && b.itemKey === f.itemKey && b.recipientKey === f.recipientKey ? [] : [{ id: f.id, ...target(f) }]
  })
  if (changedFields.length) await api.post('/envelope/field/update-many', { envelopeId, data: changedFields })

  // Attachments.
  const keptAttachments = new Set(after.attachments.map((a) => a.id).filter(Boolean))
  for (const a of before.attachments) if (!keptAttachments.has(a.id)) await api.post('/envelope/attachment/delete', { id: a.id })
  for (const a of after.attachments) {
    const data = { label: a.label.trim(), data: a.url.trim() }
    const b = before.attachments.find((x) => x.key === a.key)
    if (!a.id) await api.post('/envelope/attachment/create', { envelopeId, data })
    else if (b && (b.label !== data.label || b.url !== data.data)) await api.post('/envelope/attachment/update', { id: a.id, data })
  }
}
