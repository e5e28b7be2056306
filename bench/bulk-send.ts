/**
 * Bulk send's throughput: one template, 1,000 rows, from the request to the last document made
 * and sent (its e-mails queued), on the embedded database and on PostgreSQL, each a host in this
 * process with its queue at the default concurrency. Target: <= 60 s for 1,000 rows on this machine.
 *   npx tsx bench/bulk-send.ts     Env: BULK_ROWS (1000), DATABASE_URL (default the test database)
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PDFDocument } from '@cantoo/pdf-lib'
import pg from 'pg'
import { startHost } from '../host/server/start.js'
import { bulkDone, client, startBulk } from './support/bulk.js'

const ROWS = Number(process.env.BULK_ROWS || 1000)
const TARGET_S = 60
const BASE_URL = process.env.DATABASE_URL || process.env.DATABASE_TEST_URL || 'postgres://postgres@127.0.0.1:5432/test'

async function run(name: string, databaseUrl: string | undefined) {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-bulk-'))
  const host = await startHost({ port: 0, hostname: '127.0.0.1', dataDir: path.join(dir, 'data'), appDistDir: path.join(dir, 'no-app'), ...(databaseUrl ? { databaseUrl } : {}) })
  try {
    const team = await host.createTeam({ name: 'Bulk', plan: 'enterprise' })
    const { token } = await host.createApiToken({ name: 'bench', teamId: team.id })
    const call = client(host.apiUrl, token)
    const doc = await PDFDocument.create()
    doc.addPage([612, 792])
    const t0 = performance.now()
    const id = await startBulk(call, await doc.save(), ROWS, name.split(' ')[0]!.toLowerCase())
    const started = performance.now() - t0
    const done = await bulkDone(call, id)
    const seconds = (performance.now() - t0) / 1000
    const verdict = seconds <= TARGET_S ? 'met' : 'NOT MET'
    console.log(`${name}: ${ROWS} rows, ${done.sent} sent, ${done.refused} refused; started in ${started.toFixed(0)} ms, done in ${seconds.toFixed(1)} s (${(done.sent / seconds).toFixed(1)} documents/s); target <= ${TARGET_S} s: ${verdict}`)
  } finally {
    await host.close()
    await rm(dir, { recursive: true, force: true })
  }
}

await run('PGlite (embedded)', undefined)
const schema = `bench_bulk_${Date.now().toString(36)}`
const url = new URL(BASE_URL)
url.searchParams.set('schema', schema)
try {
  await run('PostgreSQL', url.toString())
} finally {
  const admin = new pg.Client({ connectionString: BASE_URL })
  await admin.connect()
  await admin.query(`drop schema if exists ${schema} cascade`)
  await admin.end()
}
