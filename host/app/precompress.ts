import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { Plugin } from 'vite'

const brotli = promisify(brotliCompress)
const gz = promisify(gzip)

/** What compresses: text. Fonts (woff2) and images are compressed already. */
const COMPRESSIBLE = /\.(m?js|css|svg|json|map|wasm)$/
/** Below this, the headers outweigh what compression saves. */
const MIN_BYTES = 1024

/**
 * Writes a Brotli (`.br`) and a gzip (`.gz`) copy beside every text asset of the build, once, at
 * its best level: the host sends the one the browser accepts (host/server/assets.ts), so a signer's
 * phone downloads about a quarter of the bytes and the host spends no CPU per request on it. A copy
 * that would not be smaller is not written. The files compress on libuv's threads, side by side.
 */
export function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir!
      const files = Object.keys(bundle).filter((name) => name.startsWith('assets/') && COMPRESSIBLE.test(name))
      await Promise.all(
        files.map(async (name) => {
          const file = path.join(dir, name)
          const raw = await readFile(file)
          if (raw.length < MIN_BYTES) return
          const [br, gzipped] = await Promise.all([
            brotli(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
            gz(raw, { level: constants.Z_BEST_COMPRESSION }),
          ])
          await Promise.all([br.length < raw.length && writeFile(`${file}.br`, br), gzipped.length < raw.length && writeFile(`${file}.gz`, gzipped)])
        }),
      )
    },
  }
}
