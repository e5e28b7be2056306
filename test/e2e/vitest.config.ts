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
    setupFiles: ['../support/no-secrets-in-logs.ts', '../support/built-tasks.ts', '../support/file-cpu.ts'],
    globalSetup: ['./support/global-setup.ts', '../support/host-build.ts'],
    // Limits are safety nets, far past what a test needs on a machine busy with other suites
    // (load 12 and more): a test waits for what it checks, never for a time.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    expect: { poll: { timeout: 60_000, interval: 100 } },
    // Each file has its own host on ports of its own, and its own contexts in the worker's Chromium
    // (support/fixtures.ts): files run beside the other projects' files (the root config spreads
    // them over the run).
  },
})
