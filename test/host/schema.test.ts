// The schema the migrations make, as pg_dump prints it, is host/server/db/schema.sql: a change to
// the tables shows in review as a change of that file, and a migration that makes something else
// than the snapshot says fails here. `UPDATE_SCHEMA=1 npx vitest run --project host
// test/host/schema.test.ts` writes the snapshot anew after adding a migration.
// Database: PostgreSQL (pg_dump prints what the migrations made).
import { execFile } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect, test } from 'vitest'
import { openDb } from '../../host/server/db/index.js'
import { DATABASE_TEST_URL, freshSchema, pgReason } from './support.js'

const SNAPSHOT = fileURLToPath(new URL('../../host/server/db/schema.sql', import.meta.url))

/** pg_dump's schema-only text of `schema`, without what differs between runs and servers. */
async function dump(schema: string): Promise<string> {
  const url = new URL(DATABASE_TEST_URL)
  url.search = ''
  const { stdout } = await promisify(execFile)('pg_dump', ['--schema-only', '--no-owner', '--no-privileges', '--no-comments', '-n', schema, url.toString()], { maxBuffer: 16 << 20 })
  return (
    stdout
      .split('\n')
      // pg_dump's comments (naming the schema), its session settings, the random key of its
      // \restrict guard and the schema's own statement.
      .filter((line) => !/^(--|SET |SELECT pg_catalog\.set_config|CREATE SCHEMA |\\(un)?restrict )/.test(line))
      .join('\n')
      .replaceAll(`${schema}.`, '')
      .replace(/\n{3,}/g, '\n\n')
      .trim() + '\n'
  )
}

test.skipIf(pgReason !== null)('the migrations make exactly the schema of host/server/db/schema.sql', async () => {
  const schema = freshSchema('schema_snapshot')
  const name = new URL(schema.url).searchParams.get('schema')!
  const db = await openDb({ dataDir: '', databaseUrl: schema.url })
  try {
    const made = await dump(name)
    expect(made).toMatch(/CREATE TABLE envelopes/)
    if (process.env.UPDATE_SCHEMA) await writeFile(SNAPSHOT, made)
    expect(made, 'the schema differs from host/server/db/schema.sql: run this test with UPDATE_SCHEMA=1 and review the change').toBe(await readFile(SNAPSHOT, 'utf8'))
  } finally {
    await db.close()
    await schema.drop()
  }
})
