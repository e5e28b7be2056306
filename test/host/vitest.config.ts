import { defineConfig } from 'vitest/config'

// The host's API at HTTP level on real ports, on the embedded database and on PostgreSQL,
// plus its CLI as a spawned process.
export default defineConfig({
  test: {
    name: 'host',
    root: import.meta.dirname,
    include: ['**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
})
