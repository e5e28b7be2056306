/** The entry's dependency graph: Web-standard only, so it runs on edge runtimes and Node 18+. */
import { describe, expect, it } from 'vitest'
import { resolve } from 'node:path'
import { build } from 'esbuild'

describe('envelope-embed/server entry', () => {
  it('bundles for a neutral platform from src/server and src/protocol only: no node:, no packages, no browser entry', async () => {
    const root = resolve(import.meta.dirname, '../..')
    const result = await build({
      entryPoints: [resolve(root, 'src/server/index.ts')],
      bundle: true,
      platform: 'neutral',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
      absWorkingDir: root,
    })
    const inputs = Object.keys(result.metafile.inputs)
    expect(inputs.length).toBeGreaterThan(5)
    expect(inputs.filter((f) => !/^src\/(server|protocol)\//.test(f))).toEqual([])
    const out = Object.values(result.metafile.outputs)[0]!
    expect(out.imports).toEqual([])
    expect(result.outputFiles[0]!.text).not.toMatch(/\brequire\(|\bprocess\.|\bBuffer\b|\bglobal\./)
  })
})
