// Builds the host to JavaScript in dist/: the CLI (and server) and the heavy-work tasks as ES
// modules sharing chunks, the worker threads' entry files beside them. npm packages stay imports,
// installed by `npm ci --omit=dev` from this package's dependencies; the pages are built apart
// (app/dist, `npm run build:app` at the root). The tests build the same into a folder of their own
// (test/support/host-build.ts), so their spawned hosts and CLI commands load no TypeScript.
import { build } from 'esbuild'
import { copyFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const here = (p) => fileURLToPath(new URL(p, import.meta.url))

/** Builds into `outdir`, emptied first; its parent should be a folder of the host's (its `../app/dist` is the pages). */
export async function buildHost(outdir) {
  await rm(outdir, { recursive: true, force: true })
  await build({
    entryPoints: { cli: here('server/cli.ts'), 'heavy-tasks': here('server/workers/heavy-tasks.ts') },
    outdir,
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
  // The threads load these by URL relative to the module that starts them: now outdir.
  await copyFile(here('server/workers/heavy-worker.mjs'), join(outdir, 'heavy-worker.mjs'))
  await copyFile(here('server/pdf/text-worker.mjs'), join(outdir, 'text-worker.mjs'))
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await buildHost(here('dist'))
