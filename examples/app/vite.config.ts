import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// In development the page comes from Vite (port 5173) and the backend runs beside it
// (`node server.mjs`, port 3000): Vite passes the backend's routes on to it, so the page calls
// them on its own origin, as in production where server.mjs serves both.
const backend = `http://localhost:${process.env.BACKEND_PORT ?? 3000}`

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '/presign': backend,
      '/send': backend,
      '/events': backend,
    },
  },
})
