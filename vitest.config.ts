import { rmSync } from 'node:fs'
import { defineConfig } from 'vitest/config'
import ProjectSequencer from './test/support/sequencer.js'
import { useScratchDir } from './test/support/scratch-dir.js'

// The hosts that tests and their global setups start log warnings and errors only (the request and
// job lines at info would bury the test output); test/host/log.test.ts turns it up.
process.env.LOG_LEVEL ??= 'warn'
// Temporary files (data directories, Chromium's profiles) in memory where it has room.
useScratchDir()
// Each run writes its files' CPU afresh (test/support/file-cpu.ts).
rmSync(new URL('./test-results/file-cpu.jsonl', import.meta.url), { force: true })

// Each area of the project owns a Vitest project beside its tests.
export default defineConfig({
  test: {
    projects: ['test/*/vitest.config.ts'],
    // One group for every project, so end-to-end, host and library files share the workers all
    // the way through. Most of a test waits on sockets, the database, Chromium or a timer: three
    // files at a time keep two cores busy.
    maxWorkers: 3,
    sequence: { sequencer: ProjectSequencer },
    // Every run leaves each file's and test's duration in test-results/vitest.json: where the time
    // goes is read from a real run (docs/testing.md), not guessed.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
})
