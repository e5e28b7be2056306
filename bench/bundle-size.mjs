// Size of what a customer's bundle gains from `envelope-embed`: the browser entry with all six
// components, the bridge, validation and extensions, minified, React external, gzipped.
import { gzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

export const BUDGET = 3000

export async function bundleSize() {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    external: ['react', 'react-dom', 'react/jsx-runtime'],
    write: false,
    logLevel: 'error',
  })
  const code = result.outputFiles[0].contents
  return { min: code.length, gzip: gzipSync(code, { level: 9 }).length }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { min, gzip } = await bundleSize()
  console.log(`bundle-size: browser entry ${min} B min, ${gzip} B min+gzip; budget ${BUDGET} B (${((gzip / BUDGET) * 100).toFixed(0)}%)`)
  if (gzip > BUDGET) process.exitCode = 1
}
