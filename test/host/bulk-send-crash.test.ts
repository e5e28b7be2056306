/**
 * A bulk send survives its host being killed (SIGKILL) halfway: after a restart it goes on, and in
 * the end every row was sent exactly once (each row is sent and marked in one transaction). A host
 * process of its own, on both databases: the embedded one runs the job left running again at
 * start; on PostgreSQL it runs again once its lease (cut to 2 s here) has run out.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { killed, processDatabase, serve, tokenFor } from './host-process.js'
import { api, form, makePdf, pgReason, until } from './support.js'

describe('bulk send and a crash', { timeout: 300_000 }, () => {
  const cleanup: (() => Promise<unknown>)[] = []
  afterAll(async () => {
    for (const fn of cleanup.reverse()) await fn().catch(() => {})
  })

  it.for(['pglite', 'postgres'] as const)('on %s: killed halfway and started again, no row lost, none sent twice', async (variant, { skip }) => {
    if (variant === 'postgres' && pgReason) skip(pgReason)
    const database = await processDatabase(variant, 'bulk-kill')
    cleanup.push(database.remove)
    const env = { ...database.env, QUEUE_CONCURRENCY: '2' }
    let host = await serve(env)
    cleanup.push(() => killed(host.child, 'SIGKILL'))
    const token = await tokenFor(env)
    let client = api(`${host.url}/api/v2`, token)

    const created = await client.post(
      '/envelope/create',
      form({ type: 'TEMPLATE', title: 'Lease', recipients: [{ email: '', name: 'Client', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }] }] }, [
        { bytes: await makePdf(1), name: 'lease.pdf' },
      ]),
    )
    const template = (await client.get(`/envelope/${created.body.id}`)).body
    const N = 150
    const csv = ['Name,E-mail,Title', ...Array.from({ length: N }, (_, i) => `Client ${i},client${i}@example.com,Lease ${i}`)].join('\n')
    const fd = new FormData()
    fd.set('payload', JSON.stringify({ templateId: template.id, mapping: { recipients: [{ recipientId: template.recipients[0].id, email: 'E-mail', name: 'Name' }], title: 'Title' } }))
    fd.set('file', new Blob([csv], { type: 'text/csv' }), 'people.csv')
    const started = await client.post('/envelope/bulk-send', fd)
    expect(started.status, JSON.stringify(started.body)).toBe(200)
    const id = started.body.id as string

    // Halfway: some rows sent, not all.
    let sent = 0
    await until(async () => (sent = (await client.get(`/envelope/bulk-send/${id}`)).body.sent) >= 10)
    await killed(host.child, 'SIGKILL')
    expect(sent).toBeLessThan(N)
    host = await serve(env)
    client = api(`${host.url}/api/v2`, token)
    await until(async () => (await client.get(`/envelope/bulk-send/${id}`)).body.status === 'DONE')

    expect((await client.get(`/envelope/bulk-send/${id}`)).body).toMatchObject({ total: N, sent: N, refused: 0, pending: 0 })
    const titles: string[] = []
    for (let page = 1; page <= 2; page++) titles.push(...(await client.get(`/envelope?type=DOCUMENT&perPage=100&page=${page}`)).body.data.map((e: any) => e.title))
    expect(titles).toHaveLength(N)
    expect(new Set(titles).size).toBe(N)
    const report = Buffer.from((await client.get(`/envelope/bulk-send/${id}/report`)).body).toString('utf8').trim().split('\r\n').slice(1)
    expect(new Set(report.map((line) => line.split(',')[3])).size).toBe(N)
    await killed(host.child, 'SIGTERM')
  })
})
