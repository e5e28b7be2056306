import { mkdtemp, writeFile } from 'node:fs/promises'
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
