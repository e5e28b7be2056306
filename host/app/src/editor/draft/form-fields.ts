/**
 * A file's own form fields, offered once: the service reads them when the file is added
 * (`POST /pdf/form-fields`, the same reading and conversion as the API's `importFormFields`), the
 * fields step asks whether to use them, and the answer either way ends the offer.
 */
import type { Api } from '../../page/api.js'
import type { PdfFormFields } from '../../page/types.js'
import { clampGeometry, editedMeta, newKey, type Draft, type DraftField } from './model.js'

/** The form fields of `file` as the service reads them; none when it cannot say (the file is checked again on save). */
export async function formFieldsOf(api: Api, file: File): Promise<PdfFormFields['fields']> {
  try {
    const { data } = await api.postFiles<{ data: PdfFormFields[] }>('/pdf/form-fields', {}, [file])
    return data[0]?.fields ?? []
  } catch {
    return []
  }
}

/** The draft with item `itemKey` offering `fields` (an item removed meanwhile is left as it is). */
export const offerFormFields = (d: Draft, itemKey: string, fields: PdfFormFields['fields']): Draft =>
  fields.length ? { ...d, items: d.items.map((i) => (i.key === itemKey ? { ...i, formFields: fields } : i)) } : d

/** The first item still offering its form fields. */
export const pendingOffer = (d: Draft) => d.items.find((i) => i.formFields?.length)

/** The offer of `itemKey` taken: its form fields become fields of `recipientKey`, at their places. */
export function takeFormFields(d: Draft, itemKey: string, recipientKey: string): Draft {
  const item = d.items.find((i) => i.key === itemKey)
  const added = (item?.formFields ?? []).map(
    (f): DraftField => ({
      key: newKey('f'),
      id: null,
      itemKey,
      recipientKey,
      type: f.type,
      page: f.page,
      ...clampGeometry({ x: f.positionX, y: f.positionY, w: f.width, h: f.height }),
      ...editedMeta(f.fieldMeta),
    }),
  )
  return { ...ignoreFormFields(d, itemKey), fields: [...d.fields, ...added] }
}

/** The offer of `itemKey` declined: nothing is added, and it is not asked again. */
export const ignoreFormFields = (d: Draft, itemKey: string): Draft => ({
  ...d,
  items: d.items.map((i) => (i.key === itemKey ? { ...i, formFields: undefined } : i)),
})
