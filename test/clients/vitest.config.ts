import { defineConfig } from 'vitest/config'

// The deployed service's official clients, unmodified, pointed at a real host: every call must
// resolve without the client's own response validation failing.
export default defineConfig({
  test: {
    name: 'clients',
    root: import.meta.dirname,
    include: ['**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
})
