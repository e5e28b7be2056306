/**
 * /metrics: absent without METRICS_TOKEN, only for its bearer with it; requests counted by route
 * pattern (a stranger's paths make no new series), the queue's depth and age, and job attempts
 * (sealing among them) with their duration.
 * Database: the embedded one (what is counted is the host's, not the database's).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, completeOneSigner, startTestHost, VARIANTS, type TestHost } from './support.js'

const TOKEN = 'metrics-test-token-1234'

describe.each(VARIANTS.filter((v) => v.variant === 'pglite'))('metrics on $variant', ({ variant, skip }) => {
  let host: TestHost
  let plain: TestHost

  beforeAll(async () => {
    if (skip) return
    host = await startTestHost(variant, { metricsToken: TOKEN })
    plain = await startTestHost(variant)
  })
  afterAll(async () => {
    await host?.stop()
    await plain?.stop()
  })

  const scrape = async (auth?: string) => {
    const res = await fetch(`${host.url}/metrics`, { headers: auth ? { Authorization: auth } : {} })
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() }
  }

  it.skipIf(skip)('exists only with a token, and answers only its bearer', async () => {
    expect((await fetch(`${plain.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(404)
    expect((await scrape()).status).toBe(401)
    expect((await scrape('Bearer wrong-token-of-same-size')).status).toBe(401)
    const ok = await scrape(`Bearer ${TOKEN}`)
    expect(ok.status).toBe(200)
    expect(ok.type).toContain('text/plain')
    expect(ok.text).toContain('# TYPE process_cpu_seconds_total counter')
  })

  it.skipIf(skip)('counts requests by route pattern, the queue, and job attempts with their duration', async () => {
    await fetch(`${host.url}/healthz`)
    await fetch(`${host.url}/api/v2/envelope/envelope_doesnotexist`, { headers: { Authorization: 'Bearer nope' } })
    await fetch(`${host.url}/a-strangers-path-${Date.now()}`)
    const client = api(host.apiUrl, `Bearer ${(await host.createApiToken({ name: 'metrics' })).token}`)
    await completeOneSigner(host, client, { title: 'Measured' })
    const { text } = await scrape(`Bearer ${TOKEN}`)
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/healthz",status="200"\} [1-9]/)
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/api\/v2\/envelope\/:id\{envelope_\[a-z0-9\]\+\}",status="401"\} 1/)
    expect(text).not.toContain('a-strangers-path')
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/healthz"\}/)
    expect(text).toMatch(/jobs_finished_total\{kind="seal",outcome="done"\} 1/)
    expect(text).toMatch(/job_duration_seconds_count\{kind="seal"\} 1/)
    expect(text).toContain('# TYPE jobs_waiting gauge')
    expect(text).toContain('# TYPE jobs_oldest_waiting_seconds gauge')
  })
})
