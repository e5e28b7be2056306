import { rm } from 'node:fs/promises'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
// @ts-expect-error: a plain script of the host's, without types
import { buildHost } from '../../host/build.mjs'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The host's CLI built for this run (`node <hostCli> serve`, `node <hostCli> token list`…). */
    hostCli: string
  }
}

/**
 * The host built once for a project's run, as `npm run build -w host` builds it: the tests that
 * spawn a host or a CLI command start JavaScript, not the TypeScript sources through tsx, which
 * cost each process some 3 s of CPU to load (and its heavy-work threads as much again). Built
 * beside the host's own folders (`host/.test-build-<project>`), so it finds the pages at
 * `../app/dist` and its packages in node_modules as the host's dist/ does.
 */
export default async function setup(project: TestProject) {
  const dir = path.resolve(import.meta.dirname, `../../host/.test-build-${project.name}`)
  await buildHost(dir)
  project.provide('hostCli', path.join(dir, 'cli.js'))
  return () => rm(dir, { recursive: true, force: true })
}
