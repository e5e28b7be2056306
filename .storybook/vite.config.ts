import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// Storybook's own Vite config, so the library build of the root vite.config.ts (lib mode,
// declaration emit) stays out of the demos. main.ts adds the rest in viteFinal.
export default defineConfig({
  plugins: [react()],
})
