import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { precompress } from './precompress.js'

const root = fileURLToPath(new URL('.', import.meta.url))

// The authoring pages the iframe loads. Served by the host under /embed/, so every asset
// URL is absolute under that base. `npm run build:app` writes host/app/dist.
// During development (`npx vite --config host/app/vite.config.ts`) the API is proxied to
// the host at HOST_URL.
export default defineConfig({
  root,
  base: '/embed/',
  // Each text asset also as .br and .gz, which the host sends to browsers that accept them.
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // .vite/manifest.json: the host names the signing chunk in the signing pages (modulepreload).
    manifest: true,
    // The PDF renderer is a separate, lazily loaded chunk; size warnings are about the app.
    chunkSizeWarningLimit: 1600,
    rolldownOptions: {
      // The compressed copies take most of the build's time by design (host/app/precompress.ts).
      checks: { pluginTimings: false },
      output: {
        // A language's words (host/shared/words/<lang>/<set>.ts), loaded when the language is
        // chosen: their chunks are named by both (de-pages, de-console-team).
        chunkFileNames: (chunk) => {
          const words = /\/shared\/words\/([^/]+)\/([^/]+)\.ts$/.exec(chunk.facadeModuleId ?? '')
          return words ? `assets/${words[1]}-${words[2]}-[hash].js` : 'assets/[name]-[hash].js'
        },
      },
    },
  },
  server: {
    proxy: process.env.HOST_URL ? { '/api': process.env.HOST_URL } : undefined,
  },
})
