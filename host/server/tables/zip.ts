/**
 * The files of a ZIP archive (an XLSX workbook is one), read from its central directory and
 * inflated by Node's zlib within a budget checked before each file and enforced while it inflates
 * (`maxOutputLength`): a file that says it is small and inflates to gigabytes stops at what it
 * said. Only what a workbook needs is supported: stored or deflated files, no encryption, no ZIP64
 * (a table within the upload cap never needs it). Each file's CRC is checked.
 */
import { crc32, inflateRawSync } from 'node:zlib'

export class ZipRefused extends Error {}

export interface ZipEntry {
  name: string
  method: number
  compressedSize: number
  size: number
  crc: number
  localOffset: number
}

const EOCD = 0x06054b50
const CENTRAL = 0x02014b50
const LOCAL = 0x04034b50
/** Entries of one archive: a workbook has a few dozen. */
const MAX_ENTRIES = 10_000

/** The archive's entries by name, or ZipRefused saying why it cannot be read. */
export function zipEntries(bytes: Uint8Array): Map<string, ZipEntry> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  // The end record is within the last 22 bytes + a comment of at most 65,535.
  let end = -1
  for (let i = bytes.byteLength - 22; i >= Math.max(0, bytes.byteLength - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === EOCD) {
      end = i
      break
    }
  }
  if (end < 0) throw new ZipRefused('it is not a ZIP archive (no end record)')
  const count = view.getUint16(end + 10, true)
  const size = view.getUint32(end + 12, true)
  const offset = view.getUint32(end + 16, true)
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff) throw new ZipRefused('ZIP64 archives are not read')
  if (count > MAX_ENTRIES) throw new ZipRefused(`more than ${MAX_ENTRIES} files in the archive`)
  if (offset + size > end) throw new ZipRefused('its central directory lies outside the archive')
  const entries = new Map<string, ZipEntry>()
  let at = offset
  for (let n = 0; n < count; n++) {
    if (at + 46 > end || view.getUint32(at, true) !== CENTRAL) throw new ZipRefused('its central directory is damaged')
    const flags = view.getUint16(at + 8, true)
    const nameLength = view.getUint16(at + 28, true)
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength))
    const entry: ZipEntry = {
      name,
      method: view.getUint16(at + 10, true),
      crc: view.getUint32(at + 16, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localOffset: view.getUint32(at + 42, true),
    }
    if (flags & 1) throw new ZipRefused('it is encrypted')
    if (entry.size === 0xffffffff || entry.compressedSize === 0xffffffff || entry.localOffset === 0xffffffff) throw new ZipRefused('ZIP64 archives are not read')
    if (entries.has(name)) throw new ZipRefused(`it holds "${name}" twice`)
    entries.set(name, entry)
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true)
  }
  return entries
}

/** What may still be inflated from one archive. */
export interface InflateBudget {
  left: number
}

/** One file's bytes, charged to `budget` before it is inflated; ZipRefused when it does not fit or is damaged. */
export function readZipEntry(bytes: Uint8Array, entry: ZipEntry, budget: InflateBudget): Uint8Array {
  if (entry.size > budget.left) throw new ZipRefused('it inflates to more than the budget for a table')
  budget.left -= entry.size
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const at = entry.localOffset
  if (at + 30 > bytes.byteLength || view.getUint32(at, true) !== LOCAL) throw new ZipRefused(`"${entry.name}" is damaged`)
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true)
  if (start + entry.compressedSize > bytes.byteLength) throw new ZipRefused(`"${entry.name}" lies outside the archive`)
  const data = bytes.subarray(start, start + entry.compressedSize)
  let out: Uint8Array
  if (entry.method === 0) out = data
  else if (entry.method === 8) {
    if (entry.size === 0) out = new Uint8Array(0)
    else {
      try {
        // Past the size it states, zlib stops and throws: the budget holds whatever the file holds.
        out = inflateRawSync(data, { maxOutputLength: entry.size })
      } catch {
        throw new ZipRefused(`"${entry.name}" does not inflate to the size it states`)
      }
    }
  } else throw new ZipRefused(`"${entry.name}" is compressed with a method other than deflate`)
  if (out.byteLength !== entry.size || crc32(out) !== entry.crc) throw new ZipRefused(`"${entry.name}" is damaged (its size or checksum differs)`)
  return out
}
