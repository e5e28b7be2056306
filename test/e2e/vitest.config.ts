import { defineConfig } from 'vitest/config'

// The authoring pages end to end: a real host, the built app, a parent page on another origin
// rendering the library's components, all driven in Chromium through playwright-core.
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.test.ts'],
    environment: 'node',
    // Files share their worker's process, modules and worker fixtures (docs/testing.md).
    isolate: false,
    // The host runs in the test process: nothing it logs may carry a credential.
    setupFiles: ['../support/no-secrets-in-logs.ts'],
    globalSetup: ['./support/global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 90_000,
    // The machine may be busy with other suites: give the UI time to settle.
    expect: { poll: { timeout: 15_000, interval: 100 } },
    // Each file drives its own browser and host on ports of its own: files run beside the other
    // projects' files (the root config spreads them over the run).
  },
})
