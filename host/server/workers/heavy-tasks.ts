import { createHash } from 'node:crypto'
import { jsonShapeRefusal, parseJsonText } from './json-parse.js'
import { evidenceFactsHere } from '../domain/evidence/facts.js'
import { LogoRefused, normalizeLogo, type Logo } from '../images/logo.js'
import { normalizeSignature } from '../images/signature.js'
import { inspectHere } from '../pdf/inspect.js'
import { archiveFactsHere, renewArchiveHere, type RenewOptions } from '../pdf/renew.js'
import { certificateHere, sealHere, type SealInput, type SealOptions } from '../pdf/seal.js'
import type { SealingKey } from '../pdf/sealing-key.js'
import { verifyHere } from '../pdf/verify.js'
import { whiteOutHere, type Box } from '../pdf/white-out.js'
import { readBulkTableHere } from '../domain/template/bulk-table.js'
import type { HeavyTasks } from './heavy.js'

/** A fresh buffer of its own, safe to transfer (Buffers may share a pooled one). */
const own = (bytes: Uint8Array) => (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice())

/** One SealingKey object per key: the opened key is kept per object, too slow to open for every seal. */
const keys = new Map<string, SealingKey>()
function sealingKey(sent: SealingKey): SealingKey {
  // A PKCS#12 arrives as a Uint8Array; a PEM key as text.
  const received: SealingKey = 'p12' in sent ? { ...sent, p12: Buffer.from(sent.p12) } : sent
  const id = createHash('sha256').update('p12' in received ? received.p12 : received.privateKeyPem).update(received.passphrase).update(received.certificatePem).digest('hex')
  let key = keys.get(id)
  if (!key) keys.set(id, (key = received))
  return key
}

/** What the heavy-work threads do (workers/heavy-worker.mjs); each answers its result and the buffers to transfer. */
export const heavyTasks = {
  async inspect({ bytes, name }: { bytes: Uint8Array; name: string }) {
    const result = await inspectHere(bytes, name)
    const stored = own(result.bytes)
    return { result: { ...result, bytes: stored }, transfer: [stored.buffer as ArrayBuffer] }
  },
  async seal({ input, key, options }: { input: SealInput; key: SealingKey; options: SealOptions }) {
    const result = (await sealHere(input, sealingKey(key), options)).map((s) => ({ ...s, pdf: own(s.pdf) }))
    return { result, transfer: result.map((s) => s.pdf.buffer as ArrayBuffer) }
  },
  async certificate({ input, key, options }: { input: SealInput; key: SealingKey | undefined; options: SealOptions }) {
    const result = own(await certificateHere(input, key && sealingKey(key), options))
    return { result, transfer: [result.buffer as ArrayBuffer] }
  },
  /** Run by the verify lane (verify-lane.ts), not the heavy-work pool. */
  async verify({ bytes }: { bytes: Uint8Array }) {
    return { result: await verifyHere(bytes) }
  },
  /** Run by the verify lane (verify-lane.ts): an evidence file from anyone. */
  async evidence({ jws, trusted }: { jws: string; trusted: string[] }) {
    return { result: evidenceFactsHere(jws, trusted) }
  },
  /** A large JSON body (api/json-text.ts), with the shape limits its result's reading needs, checked before parsing. */
  async json({ bytes }: { bytes: Uint8Array }) {
    const refused = jsonShapeRefusal(bytes)
    return { result: refused ? { error: refused } : parseJsonText(new TextDecoder().decode(bytes), true) }
  },
  async table({ bytes }: { bytes: Uint8Array }) {
    return { result: readBulkTableHere(bytes) }
  },
  async whiteOut({ bytes, boxes }: { bytes: Uint8Array; boxes: Box[] }) {
    const result = own(await whiteOutHere(bytes, boxes))
    return { result, transfer: [result.buffer as ArrayBuffer] }
  },
  /** The normalized signature, or why it is refused (a message for its sender). */
  async signature({ png }: { png: Uint8Array }): Promise<{ result: { png: Uint8Array } | { refused: string }; transfer?: ArrayBuffer[] }> {
    try {
      const normalized = own(normalizeSignature(png))
      return { result: { png: normalized }, transfer: [normalized.buffer as ArrayBuffer] }
    } catch (err) {
      return { result: { refused: (err as Error).message } }
    }
  },
  async logo({ bytes }: { bytes: Uint8Array }): Promise<{ result: { logo: Logo } | { refused: { code: LogoRefused['code']; message: string } }; transfer?: ArrayBuffer[] }> {
    try {
      const logo = normalizeLogo(bytes)
      const stored = own(logo.bytes)
      return { result: { logo: { ...logo, bytes: stored } }, transfer: [stored.buffer as ArrayBuffer] }
    } catch (err) {
      if (err instanceof LogoRefused) return { result: { refused: { code: err.code, message: err.message } } }
      throw err
    }
  },
  async archiveFacts({ bytes }: { bytes: Uint8Array }) {
    return { result: await archiveFactsHere(bytes) }
  },
  async renewArchive({ bytes, options }: { bytes: Uint8Array; options: RenewOptions }) {
    const result = own(await renewArchiveHere(bytes, options))
    return { result, transfer: [result.buffer as ArrayBuffer] }
  },
} satisfies HeavyTasks
