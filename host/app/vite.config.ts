import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

const root = fileURLToPath(new URL('.', import.meta.url))

// The authoring pages the iframe loads. Served by the host under /embed/, so every asset
// URL is absolute under that base. `npm run build:app` writes host/app/dist.
// During development (`npx vite --config host/app/vite.config.ts`) the API is proxied to
// the host at HOST_URL.
export default defineConfig({
  root,
  base: '/embed/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // .vite/manifest.json: the host names the signing chunk in the signing pages (modulepreload).
    manifest: true,
    // The PDF renderer is a separate, lazily loaded chunk; size warnings are about the app.
    chunkSizeWarningLimit: 1600,
  },
  server: {
    proxy: process.env.HOST_URL ? { '/api': process.env.HOST_URL } : undefined,
  },
})
