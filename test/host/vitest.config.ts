import { defineConfig } from 'vitest/config'

// The host's API at HTTP level on real ports, on the embedded database and on PostgreSQL,
// plus its CLI as a spawned process.
export default defineConfig({
  test: {
    name: 'host',
    root: import.meta.dirname,
    include: ['**/*.test.ts'],
    environment: 'node',
    // Files share their worker's process, modules and worker fixtures (docs/testing.md).
    isolate: false,
    // The host runs in the test process: nothing it logs may carry a credential.
    setupFiles: ['../support/no-secrets-in-logs.ts', '../support/built-tasks.ts'],
    // The host built once for the tests that spawn it or its CLI.
    globalSetup: ['../support/host-build.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
})
