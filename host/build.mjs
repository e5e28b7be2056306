// Builds the host to JavaScript in dist/: the CLI (and server) and the heavy-work tasks as ES
// modules sharing chunks, the worker threads' entry files beside them. npm packages stay imports,
// installed by `npm ci --omit=dev` from this package's dependencies; the pages are built apart
// (app/dist, `npm run build:app` at the root).
import { build } from 'esbuild'
import { copyFile, rm } from 'node:fs/promises'

const here = (p) => new URL(p, import.meta.url).pathname
await rm(here('dist'), { recursive: true, force: true })
await build({
  entryPoints: { cli: here('server/cli.ts'), 'heavy-tasks': here('server/workers/heavy-tasks.ts') },
  outdir: here('dist'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  banner: { js: '#!/usr/bin/env node' },
  logLevel: 'warning',
})
// The threads load these by URL relative to the module that starts them: now dist/.
await copyFile(here('server/workers/heavy-worker.mjs'), here('dist/heavy-worker.mjs'))
await copyFile(here('server/pdf/text-worker.mjs'), here('dist/text-worker.mjs'))
