import { describe, expect, it } from 'vitest'
import { formatLoad, runLoad, type LoadOptions } from '../../bench/load.js'
import { DATABASE_TEST_URL, pgReason } from './support.js'

/**
 * The short version of bench/load.ts: 10 clients for 4 s against a host process that is killed
 * (SIGKILL) halfway, once 10 writes were acknowledged, and restarted on the same data (the clients
 * go on for as long again after the restart). The figures under load are the bench's; here the
 * checks are what counts, and 4 s of writes hold the same ones as 8 s did. Nothing
 * acknowledged may be lost, no envelope may be half-written, no answer may be a 5xx (nor a 4xx:
 * every request the clients send is valid).
 * Databases: both (durability of each engine's writes across a kill).
 */
async function check(o: LoadOptions) {
  const r = await runLoad(o)
  console.log(formatLoad(o, r))
  expect(r.unexpected).toEqual([])
  expect(r.answers['5xx']).toBe(0)
  expect(r.problems).toEqual([])
  expect(r.lostWrites).toBe(0)
  expect(r.halfWritten).toBe(0)
  expect(r.acknowledgedWrites).toBeGreaterThan(0)
  expect(r.envelopesChecked).toBeGreaterThan(0)
  expect(r.restartMs).not.toBeNull()
}

describe('durability under load', () => {
  it('embedded database: concurrent writes, SIGKILL and restart, nothing acknowledged lost', () => check({ clients: 10, seconds: 4, kill: true, killAfterWrites: 10 }))
  it.skipIf(pgReason !== null)('PostgreSQL: the same', () => check({ clients: 10, seconds: 4, kill: true, killAfterWrites: 10, databaseUrl: DATABASE_TEST_URL }))
})
