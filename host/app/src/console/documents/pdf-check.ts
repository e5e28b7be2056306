/**
 * What the console can tell about a chosen file before uploading it: whether it is a PDF at all
 * and whether it is password-protected (the host refuses both; saying so at once spares the
 * upload). The host checks every file again; these checks only answer earlier.
 */

/** Most files one envelope may be created with (the host's limit per request, MAX_FILES). */
export const MAX_FILES = 20

export type FileProblem = 'notPdf' | 'encrypted'

/** Why `file` cannot be uploaded, or null when it looks like an unprotected PDF. */
export async function problemOf(file: Blob): Promise<FileProblem | null> {
  const head = new TextDecoder('latin1').decode(await file.slice(0, 1024).arrayBuffer())
  if (!head.includes('%PDF-')) return 'notPdf'
  // An encrypted PDF names its security handler in the trailer (or the cross-reference stream's
  // dictionary, which is never compressed): `/Encrypt 5 0 R` or an inline `/Encrypt << … >>`.
  const text = new TextDecoder('latin1').decode(await file.arrayBuffer())
  return /\/Encrypt\s*(\d+\s+\d+\s+R|<<)/.test(text) ? 'encrypted' : null
}

/** A file name without its `.pdf`: the envelope's title until the person writes one. */
export const titleOf = (name: string) => name.replace(/\.pdf$/i, '').trim() || name
