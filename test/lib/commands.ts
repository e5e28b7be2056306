import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { build } from 'vite'
import type { BrowserCommand } from 'vitest/node'
// @ts-expect-error plain ESM script without types
import { BUDGET, bundleSize } from '../../bench/bundle-size.mjs'

const root = resolve(import.meta.dirname, '../..')

export interface ServerRender {
  window: string
  html: string
  warnings: unknown[][]
  errors: unknown[][]
}

export interface LibraryBuild {
  /** Contents of the built files the tests look at, by path under the output folder. */
  files: Record<string, string>
  gzip: number
  budget: number
}

declare module 'vitest/browser' {
  interface BrowserCommands {
    /** Server-renders every component in a Node process of its own (no window). */
    renderOnServer: () => Promise<ServerRender>
    /** Builds the package with vite.config.ts into a temporary folder, and measures the browser bundle. */
    buildLibrary: () => Promise<LibraryBuild>
  }
}

// Test code that must run in Node, called from the browser tests.
export const commands: Record<string, BrowserCommand<never[]>> = {
  async renderOnServer(): Promise<ServerRender> {
    const script = join(import.meta.dirname, 'server/render.tsx')
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], { cwd: root })
    return JSON.parse(stdout)
  },
  async buildLibrary(): Promise<LibraryBuild> {
    const out = await mkdtemp(join(tmpdir(), 'envelope-embed-build-'))
    try {
      await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'silent', build: { outDir: out } })
      const names = ['index.js', 'index.cjs', 'index.d.ts', 'index.d.cts', 'react/types.d.cts', 'testing/index.js', 'testing/index.d.ts']
      const files = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await readFile(join(out, n), 'utf8')])))
      const { gzip } = await bundleSize()
      return { files, gzip, budget: BUDGET }
    } finally {
      await rm(out, { recursive: true, force: true })
    }
  },
}
