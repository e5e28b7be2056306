import { defineConfig } from 'vitest/config'

// Each area of the project owns a Vitest project beside its tests.
export default defineConfig({
  test: {
    projects: ['test/*/vitest.config.ts'],
  },
})
