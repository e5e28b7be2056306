// Size of what a customer's bundle gains from `envelope-embed`, minified, React external, gzipped:
// the browser entry with every component (the bridge, validation, extensions and commands), and
// one component alone (`EmbedCreateEnvelope`, as an app that imports only it gets it).
import { gzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

/**
 * What `npm test` holds the sizes to: today's, with the ref handles and every signing moment,
 * plus about 1 %, so nothing grows unnoticed. The targets are the sizes to get back to (3,300 B
 * and 2,200 B); reaching them means giving up a feature (docs/components.md, "Size", says which
 * features cost what).
 */
export const BUDGET = 3740
export const TARGET = 3300
/** `EmbedCreateEnvelope` alone (the frame's session apart from useFrame, a function of its own: 12 B). */
export const ONE_BUDGET = 2650
export const ONE_TARGET = 2200

const entry = fileURLToPath(new URL('../src/index.ts', import.meta.url))

/** `only`: the names imported (default: the whole entry). */
export async function bundleSize(only) {
  const result = await build({
    ...(only
      ? { stdin: { contents: `export { ${only.join(', ')} } from ${JSON.stringify(entry)}`, resolveDir: process.cwd(), loader: 'ts' } }
      : { entryPoints: [entry] }),
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
  const share = (gzip, of) => `${of} B (${((gzip / of) * 100).toFixed(0)}%)`
  for (const [name, only, budget, target] of [['browser entry', undefined, BUDGET, TARGET], ['EmbedCreateEnvelope alone', ['EmbedCreateEnvelope'], ONE_BUDGET, ONE_TARGET]]) {
    const { min, gzip } = await bundleSize(only)
    console.log(`bundle-size: ${name} ${min} B min, ${gzip} B min+gzip; budget ${share(gzip, budget)}, target ${share(gzip, target)}`)
    if (gzip > budget) process.exitCode = 1
  }
}
