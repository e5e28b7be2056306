import { mkdirSync, statfsSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Where the tests' temporary files go: a directory on /dev/shm (memory) where there is one with room,
 * else the system's. Every host a test starts copies a 41 MB, 1,181-file embedded cluster into a new
 * data directory and removes it after; on this project's reference machine the copy alone cost 1.6
 * to 2 s of CPU on the ext4 disk and 0.06 s in memory, and the databases' writes go the same way. A
 * process that is killed loses nothing either way (its writes are in the page cache), so the tests
 * of durability hold the same. `TEST_TMPDIR` names another place; `TEST_TMPDIR=` (empty) keeps the
 * system's.
 *
 * Set in the root config, so every worker, spawned host, CLI command and Chromium inherits `TMPDIR`.
 */
export function useScratchDir(): void {
  const env = process.env
  if (env.TEST_TMPDIR !== undefined) {
    if (env.TEST_TMPDIR) env.TMPDIR = env.TEST_TMPDIR
    return
  }
  const MIN_FREE = 4 * 1024 ** 3
  try {
    const fs = statfsSync('/dev/shm')
    if (fs.bavail * fs.bsize < MIN_FREE) return
    const dir = join('/dev/shm', `envelope-embed-tests-${process.getuid?.() ?? 0}`)
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    env.TEST_TMPDIR = env.TMPDIR = dir
  } catch {
    // No /dev/shm (not Linux): the system's temporary directory.
  }
}
