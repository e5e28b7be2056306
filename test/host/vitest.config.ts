import { defineConfig } from 'vitest/config'

// The service: the host's API at HTTP level on real ports, on the embedded database and on
// PostgreSQL, plus its CLI as a spawned process (test/host); the server entry against a real host
// (test/server); the deployed service's official clients, unmodified, pointed at a real host, every
// call resolving without the client's own response validation failing (test/clients). One project,
// so their files share the workers' processes and loaded modules all the way through: a project of
// its own costs each worker a new process and a fresh load of the host's modules (some 6 s a switch).
export default defineConfig({
  test: {
    name: 'host',
    root: `${import.meta.dirname}/..`,
    include: ['host/**/*.test.ts', 'server/**/*.test.ts', 'clients/**/*.test.ts'],
    environment: 'node',
    // Files share their worker's process, modules and worker fixtures (docs/testing.md).
    isolate: false,
    // The host runs in the test process: nothing it logs may carry a credential.
    setupFiles: ['./support/no-secrets-in-logs.ts', './support/built-tasks.ts', './support/file-cpu.ts'],
    // The host built once for the tests that spawn it or its CLI.
    globalSetup: ['./support/host-build.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
})
