import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: 'server',
    root: import.meta.dirname,
    environment: 'node',
    // Files share their worker's process, modules and worker fixtures (docs/testing.md).
    isolate: false,
    // The host runs in the test process: nothing it logs may carry a credential.
    setupFiles: ['../support/no-secrets-in-logs.ts'],
    include: ['**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
})
