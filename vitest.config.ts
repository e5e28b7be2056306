import { defineConfig } from 'vitest/config'

// The hosts that tests and their global setups start log warnings and errors only (the request and
// job lines at info would bury the test output); test/host/log.test.ts turns it up.
process.env.LOG_LEVEL ??= 'warn'

// Each area of the project owns a Vitest project beside its tests.
export default defineConfig({
  test: {
    projects: ['test/*/vitest.config.ts'],
  },
})
