import { defineConfig } from 'vitest/config'

// The deployed service's official clients, unmodified, pointed at a real host: every call must
// resolve without the client's own response validation failing.
export default defineConfig({
  test: {
    name: 'clients',
    root: import.meta.dirname,
    include: ['**/*.test.ts'],
    environment: 'node',
    // Files share their worker's process, modules and worker fixtures (docs/testing.md).
    isolate: false,
    // The host runs in the test process: nothing it logs may carry a credential.
    setupFiles: ['../support/no-secrets-in-logs.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
})
