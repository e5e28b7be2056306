import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import ts from 'typescript'
import { defineConfig, type Plugin } from 'vite'

const root = import.meta.dirname

// The package's entries: the browser components, and the backend helpers once they exist.
const entries: Record<string, string> = { index: resolve(root, 'src/index.ts') }
if (existsSync(resolve(root, 'src/server/index.ts'))) entries['server/index'] = resolve(root, 'src/server/index.ts')
// The helpers for customers' unit tests: their own entry, never part of the browser one.
entries['testing/index'] = resolve(root, 'src/testing/index.ts')

/**
 * Type declarations beside the bundles: `x.d.ts` for the ESM build and `x.d.cts` (imports pointing
 * at `.cjs`) for the CommonJS one, so both resolve under node16 without masquerading.
 */
function declarations(): Plugin {
  let out = ''
  return {
    name: 'envelope-embed:declarations',
    apply: 'build',
    configResolved(config) {
      out = resolve(config.root, config.build.outDir)
    },
    closeBundle() {
      const config = ts.getParsedCommandLineOfConfigFile(resolve(root, 'tsconfig.json'), {}, {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'))
        },
      })!
      const program = ts.createProgram(Object.values(entries), {
        ...config.options,
        noEmit: false,
        declaration: true,
        emitDeclarationOnly: true,
        rootDir: resolve(root, 'src'),
        outDir: out,
      })
      const result = program.emit(undefined, (file, text) => {
        mkdirSync(dirname(file), { recursive: true })
        writeFileSync(file, text)
        const cts = text.replace(/(from\s+|import\(\s*)(['"])(\.{1,2}\/[^'"]+)\.js\2/g, '$1$2$3.cjs$2')
        writeFileSync(file.replace(/\.d\.ts$/, '.d.cts'), cts)
      }, undefined, true)
      const errors = result.diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error)
      if (errors.length) throw new Error(ts.formatDiagnostics(errors, { ...ts.sys, getCanonicalFileName: (f) => f, getNewLine: () => '\n' }))
      this.info?.(`declarations for ${Object.keys(entries).join(', ')} in ${relative(root, out)}/`)
    },
  }
}

export default defineConfig({
  plugins: [declarations()],
  // The published code uses the production JSX runtime whatever NODE_ENV the build runs under.
  oxc: { jsx: { runtime: 'automatic', development: false } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    minify: false,
    sourcemap: true,
    target: 'es2022',
    lib: {
      entry: entries,
      formats: ['es', 'cjs'],
      fileName: (format, name) => `${name}.${format === 'es' ? 'js' : 'cjs'}`,
    },
    rolldownOptions: {
      external: (id) => /^(react|react-dom)(\/|$)/.test(id) || id.startsWith('node:'),
      // The browser entry's "use client" is kept at the top of its bundle (test/lib checks it).
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE' || !warning.id?.endsWith('src/index.ts')) warn(warning)
      },
    },
  },
})
