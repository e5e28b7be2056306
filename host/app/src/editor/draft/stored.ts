/**
 * No work lost: the editor's unsaved edits, kept in this tab's sessionStorage (the frame's own, of
 * the host origin) under the presign token and the envelope they belong to ("new" on create
 * routes), so that a reload of the frame or a re-mount by the parent with the same token offers
 * them back. Another token, another person's session, never finds them; closing the tab ends them.
 * New files are kept as data URLs; edits too large for the storage are not kept (nor is an older
 * copy left behind to be offered in their place).
 */
import { newKey, type Draft, type DraftItem } from './model.js'

/** What is kept: the edits, the draft they started from (the envelope as loaded), and when. */
export interface StoredDraft {
  base: Draft
  draft: Draft
  at: number
}

type KeptFile = { name: string; type: string; data: string }

/** The storage key: a hash of the token (the token itself stays out of storage) and the envelope. */
export function draftKey(token: string, envelopeId: string | null): string {
  let a = 0x811c9dc5
  let b = 0x1000193
  for (let i = 0; i < token.length; i++) {
    a = Math.imul(a ^ token.charCodeAt(i), 0x01000193)
    b = Math.imul(b ^ token.charCodeAt(i), 0x5bd1e995)
  }
  return `envelope-draft:${(a >>> 0).toString(36)}${(b >>> 0).toString(36)}:${envelopeId ?? 'new'}`
}

const dataUrls = new WeakMap<File, Promise<string>>()
const dataUrl = (file: File) => {
  let url = dataUrls.get(file)
  if (!url) {
    url = new Promise<string>((resolve, reject) => {
      const reader = new FileReader()
      reader.onload = () => resolve(reader.result as string)
      reader.onerror = () => reject(reader.error)
      reader.readAsDataURL(file)
    })
    dataUrls.set(file, url)
  }
  return url
}

export async function keepDraft(key: string, base: Draft, draft: Draft): Promise<void> {
  try {
    const files = await Promise.all(draft.items.map((i) => (i.file ? dataUrl(i.file) : null)))
    const items = draft.items.map((i, n) => ({ ...i, file: i.file && ({ name: i.file.name, type: i.file.type, data: files[n] } as KeptFile) }))
    sessionStorage.setItem(key, JSON.stringify({ base, draft: { ...draft, items }, at: Date.now() }))
  } catch {
    forgetDraft(key)
  }
}

export function forgetDraft(key: string): void {
  try {
    sessionStorage.removeItem(key)
  } catch {}
}

/** The kept edits of `key`, with their files back and fresh keys (the same in both drafts), or null. */
export function storedDraft(key: string): StoredDraft | null {
  try {
    const raw = sessionStorage.getItem(key)
    if (!raw) return null
    const kept = JSON.parse(raw) as StoredDraft
    const keys = new Map<string, string>()
    const rekey = (k: string) => keys.get(k) ?? (keys.set(k, newKey(k.replace(/\d+$/, ''))), keys.get(k)!)
    const revive = (d: Draft): Draft => ({
      ...d,
      items: d.items.map((i) => ({ ...i, key: rekey(i.key), file: i.file && fileOf(i.file as unknown as KeptFile) }) as DraftItem),
      recipients: d.recipients.map((r) => ({ ...r, key: rekey(r.key) })),
      fields: d.fields.map((f) => ({ ...f, key: rekey(f.key), itemKey: rekey(f.itemKey), recipientKey: rekey(f.recipientKey) })),
      attachments: d.attachments.map((a) => ({ ...a, key: rekey(a.key) })),
    })
    return { base: revive(kept.base), draft: revive(kept.draft), at: kept.at }
  } catch {
    return null
  }
}

function fileOf({ name, type, data }: KeptFile): File {
  const bytes = atob(data.slice(data.indexOf(',') + 1))
  const array = new Uint8Array(bytes.length)
  for (let i = 0; i < bytes.length; i++) array[i] = bytes.charCodeAt(i)
  return new File([array], name, { type })
}
