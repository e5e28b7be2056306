import type { Db, Queryable } from '../engine.js'
import m001 from './001-initial.js'
import m002 from './002-field-values.js'
import m003 from './003-job-queue.js'
import m004 from './004-team-numbers.js'
import m005 from './005-direct-links.js'
import m006 from './006-embed-origins.js'
import m007 from './007-document-template.js'
import m008 from './008-immutable-evidence.js'
import m009 from './009-people.js'
import m010 from './010-totp-last-step.js'
import m011 from './011-recipient-auth.js'
import m012 from './012-direct-link-codes.js'
import m013 from './013-envelope-counts.js'
import m014 from './014-object-storage.js'
import m015 from './015-job-request-id.js'
import m016 from './016-rate-limit-counts.js'
import m017 from './017-queue-claim.js'
import m018 from './018-claim-follow.js'
import m019 from './019-session-proof.js'
import m020 from './020-credential-ceiling.js'
import m021 from './021-team-files-and-shares.js'
import m022 from './022-webhook-secret-rotation.js'
import m023 from './023-audit-chain.js'
import m024 from './024-consent-disclosures.js'
import m025 from './025-retention-purge.js'
import m026 from './026-envelope-search.js'
import m028 from './028-archive-renewal.js'
import m029 from './029-team-branding.js'
import m030 from './030-webhook-signing-keys.js'
import m031 from './031-proof-binding.js'
import m032 from './032-purge-guards.js'
import m033 from './033-language-chosen.js'
import m034 from './034-bulk-sends.js'

/**
 * Ordered, append-only: a new migration is a new file here, listed last. Each runs once, in its
 * own transaction, recorded in schema_migrations. Plain PostgreSQL that both PGlite and a server
 * accept. ../schema.sql is the schema they make, checked by test/host/schema.test.ts.
 */
export const MIGRATIONS: { version: number; sql: string }[] = [
  { version: 1, sql: m001 },
  { version: 2, sql: m002 },
  { version: 3, sql: m003 },
  { version: 4, sql: m004 },
  { version: 5, sql: m005 },
  { version: 6, sql: m006 },
  { version: 7, sql: m007 },
  { version: 8, sql: m008 },
  { version: 9, sql: m009 },
  { version: 10, sql: m010 },
  { version: 11, sql: m011 },
  { version: 12, sql: m012 },
  { version: 13, sql: m013 },
  { version: 14, sql: m014 },
  { version: 15, sql: m015 },
  { version: 16, sql: m016 },
  { version: 17, sql: m017 },
  { version: 18, sql: m018 },
  { version: 19, sql: m019 },
  { version: 20, sql: m020 },
  { version: 21, sql: m021 },
  { version: 22, sql: m022 },
  { version: 23, sql: m023 },
  { version: 24, sql: m024 },
  { version: 25, sql: m025 },
  { version: 26, sql: m026 },
  { version: 28, sql: m028 },
  { version: 29, sql: m029 },
  { version: 30, sql: m030 },
  { version: 31, sql: m031 },
  { version: 32, sql: m032 },
  { version: 33, sql: m033 },
  { version: 34, sql: m034 },
]

export async function migrate(db: Db): Promise<void> {
  await db.exec('create table if not exists schema_migrations (version integer primary key, applied_at timestamptz not null default now())')
  // By version, whatever order they were listed in: a later number may rely on an earlier one.
  for (const m of [...MIGRATIONS].sort((a, b) => a.version - b.version)) {
    await db.transaction(async (tx) => {
      // Several processes may start on one PostgreSQL database at once: migrate one at a time.
      await tx.query('select pg_advisory_xact_lock(7310451)')
      const done = await tx.query('select 1 from schema_migrations where version = $1', [m.version])
      if (done.length) return
      await tx.exec(m.sql)
      await tx.query('insert into schema_migrations (version) values ($1)', [m.version])
    })
  }
}

/** The newest migration applied to the database, or null before any. */
export async function schemaVersion(db: Queryable): Promise<number | null> {
  const [row] = await db.query<{ version: number | null }>('select max(version)::int as version from schema_migrations')
  return row?.version ?? null
}
