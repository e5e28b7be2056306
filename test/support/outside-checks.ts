/**
 * Checks by tools outside this code base: poppler's pdfsig and OpenSSL. Each is skipped, with a
 * message, where the Debian package is missing (.ci/run installs both).
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

export function hasTool(command: string): boolean {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).status === 0
  if (!found) console.warn(`${command} is not installed (Debian: poppler-utils / openssl): its checks are skipped`)
  return found
}

/** Runs `fn` with a fresh directory, removed afterwards. */
function inTemp<T>(fn: (dir: string) => T): T {
  const dir = mkdtempSync(path.join(tmpdir(), 'outside-'))
  try {
    return fn(dir)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** pdfsig's report on a PDF (stdout and stderr; it exits non-zero for an invalid signature). */
export function pdfsig(pdf: Uint8Array): string {
  return inTemp((dir) => {
    const file = path.join(dir, 'doc.pdf')
    writeFileSync(file, pdf)
    const run = spawnSync('pdfsig', [file], { encoding: 'utf8' })
    return `${run.stdout}${run.stderr}`
  })
}

/** The last signature's CMS (DER, padding cut off) and the bytes its ByteRange covers. */
export function extractSignature(pdf: Uint8Array): { cms: Buffer; covered: Buffer } {
  const bytes = Buffer.from(pdf)
  const match = [...bytes.toString('latin1').matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)].at(-1)
  if (!match) throw new Error('no /ByteRange')
  const [a, b, c, d] = match.slice(1, 5).map(Number) as [number, number, number, number]
  const hex = bytes.subarray(a + b + 1, c - 1).toString('latin1')
  const der = Buffer.from(hex, 'hex')
  // The DER's own length (a SEQUENCE with a long-form length), so the zero padding is left out.
  const lengthBytes = der[1]! & 0x7f
  const length = der[1]! < 0x80 ? der[1]! : der.subarray(2, 2 + lengthBytes).readUIntBE(0, lengthBytes)
  const headerLength = der[1]! < 0x80 ? 2 : 2 + lengthBytes
  return { cms: der.subarray(0, headerLength + length), covered: Buffer.concat([bytes.subarray(a, a + b), bytes.subarray(c, c + d)]) }
}

/** `openssl cms -verify` of a detached CMS over `content`, trusting `caPem`; throws with OpenSSL's message on failure. */
export function opensslCmsVerify(cms: Buffer, content: Buffer, caPem: string): string {
  return inTemp((dir) => {
    const p = (name: string) => path.join(dir, name)
    writeFileSync(p('sig.der'), cms)
    writeFileSync(p('content.bin'), content)
    writeFileSync(p('ca.pem'), caPem)
    return execFileSync(
      'openssl',
      ['cms', '-verify', '-binary', '-inform', 'DER', '-in', p('sig.der'), '-content', p('content.bin'), '-CAfile', p('ca.pem'), '-purpose', 'any', '-out', p('out.bin')],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    )
  })
}

/** `openssl ts -verify` of a timestamp token over the SHA-256 `digest`, trusting `caPem`. */
export function opensslTsVerify(token: Buffer, digest: Buffer, caPem: string): string {
  return inTemp((dir) => {
    const p = (name: string) => path.join(dir, name)
    writeFileSync(p('token.der'), token)
    writeFileSync(p('ca.pem'), caPem)
    const run = spawnSync('openssl', ['ts', '-verify', '-token_in', '-in', p('token.der'), '-digest', digest.toString('hex'), '-CAfile', p('ca.pem')], {
      encoding: 'utf8',
    })
    const out = `${run.stdout}${run.stderr}`
    if (run.status !== 0) throw new Error(out)
    return out
  })
}
