import { mkdtemp, readdir, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build as esbuild } from 'esbuild'
import { build as vite } from 'vite'

const repo = fileURLToPath(new URL('../../../', import.meta.url))

/** Builds the authoring pages into a fresh directory (what `npm run build:app` makes). */
export async function buildApp(outDir?: string): Promise<string> {
  const dir = outDir ?? (await mkdtemp(join(tmpdir(), 'envelope-app-')))
  await vite({ configFile: join(repo, 'host/app/vite.config.ts'), logLevel: 'warn', build: { outDir: dir, emptyOutDir: true } })
  return dir
}

/** What host/app/vite.config.ts builds from: the app, the library's protocol it imports, the host's shared modules, the dependencies. */
const APP_SOURCES = ['host/app', 'src', 'host/shared', 'package.json', 'package-lock.json', 'tsconfig.json']
const APP_DIST = join(repo, 'host/app/dist')

/** The modification times of the files under `path` (a file or a directory), output and dependencies left out. */
async function mtimes(path: string, skip: string[] = []): Promise<number[]> {
  const s = await stat(path)
  if (!s.isDirectory()) return [s.mtimeMs]
  const out: number[] = []
  for (const entry of await readdir(path, { withFileTypes: true })) {
    const child = join(path, entry.name)
    if (entry.name === 'node_modules' || skip.includes(child)) continue
    out.push(...(await mtimes(child, skip)))
  }
  return out
}

/**
 * host/app/dist when `npm run build` wrote it after the last change to anything it is built from
 * (`npm test` builds right before the tests), else null: a page edited since must not be tested stale.
 */
export async function builtApp(): Promise<string | null> {
  const built = await mtimes(APP_DIST).catch(() => [])
  if (!built.length || !(await stat(join(APP_DIST, '.vite/manifest.json')).catch(() => null))) return null
  const sources = (await Promise.all(APP_SOURCES.map((p) => mtimes(join(repo, p), [APP_DIST])))).flat()
  return Math.min(...built) > Math.max(...sources) ? APP_DIST : null
}

/**
 * Builds the parent pages: the library's components (from src/) on a plain page (`/`), and the
 * deployed service's library on another (`/deployed.html`).
 */
export async function buildParent(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'envelope-parent-'))
  await esbuild({
    entryPoints: [join(repo, 'test/e2e/parent/main.tsx')],
    outfile: join(dir, 'parent.js'),
    bundle: true,
    format: 'esm',
    minify: true,
    jsx: 'automatic',
    alias: { 'envelope-embed': join(repo, 'src/index.ts') },
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  })
  await writeFile(
    join(dir, 'index.html'),
    `<!doctype html><html><head><meta charset="utf-8"><title>Parent</title>
<style>body{margin:0;font-family:system-ui;background:#eef1f5}#root{padding:16px}</style></head>
<body><div id="root"></div><script type="module" src="/parent.js"></script></body></html>`,
  )
  // The same customer page on the deployed service's library (@documenso/embed-react), unmodified.
  await esbuild({
    entryPoints: [join(repo, 'test/e2e/parent/deployed.tsx')],
    outfile: join(dir, 'deployed.js'),
    bundle: true,
    format: 'esm',
    minify: true,
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  })
  await writeFile(
    join(dir, 'deployed.html'),
    `<!doctype html><html><head><meta charset="utf-8"><title>Parent (deployed library)</title>
<style>body{margin:0;font-family:system-ui;background:#eef1f5}#root{padding:16px}iframe{display:block;width:100%;height:860px;border:0}</style></head>
<body><div id="root"></div><script type="module" src="/deployed.js"></script></body></html>`,
  )
  return dir
}

/** What `npm run build:lib` builds dist/ from. */
const LIB_SOURCES = ['src', 'package.json', 'vite.config.ts', 'tsconfig.json']
const LIB_DIST = join(repo, 'dist')

/**
 * The library's dist/ as `npm run build:lib` writes it (`npm test` builds it right before the
 * tests): built here first when it is missing or older than a file it is built from.
 */
export async function builtLibrary(): Promise<string> {
  const built = await mtimes(LIB_DIST).catch(() => [])
  const sources = (await Promise.all(LIB_SOURCES.map((p) => mtimes(join(repo, p))))).flat()
  if (!built.length || Math.min(...built) <= Math.max(...sources)) await vite({ configFile: join(repo, 'vite.config.ts'), root: repo, logLevel: 'warn' })
  return LIB_DIST
}
