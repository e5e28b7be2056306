/**
 * Whatever a caller types into a list's search or filter is an answer, never a server error
 * (docs/security.md; api/search-text.ts): every list route that takes search or filter text
 * (API v2, the deprecated lists, the console's documents list, the attachment list) is walked with
 * NUL, other control characters, lone surrogates, very long text, LIKE wildcards, tsquery and
 * regex syntax and quotes. Each answers 200, or 400 INVALID_REQUEST naming the parameter (or the
 * attachment list's documented 404 for a token that is no recipient's); the
 * wildcards are text (a `%` finds only the title that holds one).
 * Databases: both (search text meets each engine's text search and LIKE through its own driver).
 */
import { describe, expect, newMember, newTeam, test } from './fixtures.js'
import type { ConsoleClient } from '../support/console-client.js'
import { createEnvelope, VARIANTS, type TestHost } from './support.js'

/** Search text as it goes into the query string: already percent-encoded where it must be raw bytes. */
const RAW = ['%00', 'a%00b', '%00%00%00', '%01', '%1B%5B31m', '%7F', '%C2%85', '%ED%A0%80', '%ED%B0%80x', '%F0%9F', '%FF%FE', '%', '%25%25', '%E2%80%8B']
const TEXT = [
  '%', '_', '%_%', '\\', '\\%', "'", "''", '"', "a'b", 'a & !b', 'a | b', 'a:*', ':*', '!', '&&', '<->', 'a <-> b', "'a':* & 'b'",
  '.*', '(a|b)+$', '[a-z]{2,}', '^(?=x)', '\\d+', '$1', '*', '?', '{', '[', ')',
  'x'.repeat(200), 'x'.repeat(201), 'x'.repeat(5000), 'a '.repeat(150), 'ab.'.repeat(66), '@'.repeat(200), 'é'.repeat(200), '测'.repeat(200), '😀'.repeat(100),
  'Ｐａｙｐａｌ', '\t\n', ' ', '<script>', 'null', 'undefined', '1=1; drop table envelopes', 'envelope_', 'envelope_zzzz',
]
const INPUTS = [...RAW, ...TEXT.map(encodeURIComponent)]

describe.each(VARIANTS)('search and filter input on $variant', { timeout: 300_000 }, ({ variant, skip }) => {
  let host: TestHost
  let token: string
  let member: ConsoleClient
  let envelopeId: string

  test.beforeAll(async ({ hosts }) => {
    if (skip) return
    host = await hosts.on(variant)
    // A team of its own: the host is shared.
    const team = await newTeam(host, { plan: 'enterprise' })
    member = (await newMember(host, team.id)).console
    token = `Bearer ${team.token}`
    const client = team.client
    envelopeId = (await createEnvelope(client, { title: '100% sure_thing', recipients: [{ name: 'Ann', email: 'ann@example.com', role: 'SIGNER' }] })).id
    await createEnvelope(client, { title: 'Plain lease', recipients: [{ name: 'Bo', email: 'bo@example.com', role: 'SIGNER' }] })
  })

  /** Every list route that takes search or filter text: its name, the parameter, and how to ask it. */
  const routes = (): { name: string; param: string; get: (value: string) => Promise<Response>; notFound?: true }[] => {
    const v2 = (path: string) => (value: string) => fetch(`${host.apiUrl}${path}${value}`, { headers: { Authorization: token } })
    return [
      { name: 'GET /api/v2/envelope', param: 'query', get: v2('/envelope?query=') },
      { name: 'GET /api/v2/envelope (templates)', param: 'query', get: v2('/envelope?type=TEMPLATE&status=DRAFT&query=') },
      { name: 'GET /api/v2-beta/envelope', param: 'query', get: (value) => fetch(`${host.url}/api/v2-beta/envelope?query=${value}`, { headers: { Authorization: token } }) },
      { name: 'GET /api/v2/document', param: 'query', get: v2('/document?query=') },
      { name: 'GET /api/v2/template', param: 'query', get: v2('/template?query=') },
      // A token that is none of the envelope's recipients' is a 404, as documented.
      { name: 'GET /api/v2/envelope/attachment', param: 'token', get: (value) => v2(`/envelope/attachment?envelopeId=${envelopeId}&token=`)(value), notFound: true },
      { name: 'GET /api/v1/documents', param: 'query', get: (value) => fetch(`${host.url}/api/v1/documents?query=${value}`, { headers: { Authorization: token } }) },
      { name: 'GET /api/console/documents', param: 'query', get: (value) => member.console(`/documents?query=${value}`) },
      { name: 'GET /api/console/documents (templates, sorted)', param: 'query', get: (value) => member.console(`/documents?type=TEMPLATE&sort=title&period=30d&query=${value}`) },
      { name: 'GET /api/console/documents', param: 'sender', get: (value) => member.console(`/documents?sender=${value}`) },
      { name: 'GET /api/console/documents (sender and me)', param: 'sender', get: (value) => member.console(`/documents?owner=me&query=a&sender=${value}`) },
    ]
  }

  test.skipIf(skip)('every list answers 200 or a 400 naming the parameter, never a server error', async () => {
    const failures: string[] = []
    const cases = routes().flatMap((route) => INPUTS.map((input) => ({ route, input })))
    // Independent requests, a few at a time.
    for (let i = 0; i < cases.length; i += 8) {
      await Promise.all(
        cases.slice(i, i + 8).map(async ({ route, input }) => {
          const res = await route.get(input)
          const body = (await res.json().catch(() => null)) as { code?: string; message?: string; issues?: { path: string }[] } | null
          const ok = res.status === 200 || (route.notFound && res.status === 404 && body?.code === 'NOT_FOUND') || (res.status === 400 && body?.code === 'INVALID_REQUEST' && typeof body.message === 'string' && body.issues?.some((i) => i.path === route.param))
          if (!ok) failures.push(`${route.name} ${route.param}=${input.slice(0, 40)}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`)
        }),
      )
    }
    expect(failures.sort()).toEqual([])
  })

  test.skipIf(skip)('a NUL or a control character is refused with 400; wildcards are text', async () => {
    for (const route of routes().filter((r) => r.param === 'query' && !r.name.includes('v1'))) {
      for (const input of ['%00', 'a%00b', '%01', '%1B%5B31m']) {
        const res = await route.get(input)
        expect([res.status, ((await res.json()) as { code: string }).code], `${route.name} ${input}`).toEqual([400, 'INVALID_REQUEST'])
      }
    }
    const titles = async (q: string) => ((await (await fetch(`${host.apiUrl}/envelope?query=${encodeURIComponent(q)}`, { headers: { Authorization: token } })).json()) as { data: { title: string }[] }).data.map((e) => e.title)
    expect(await titles('%')).toEqual(['100% sure_thing'])
    expect(await titles('_')).toEqual(['100% sure_thing'])
    expect(await titles('%_%')).toEqual([])
    expect(await titles('.*')).toEqual([])
    expect(await titles('lease')).toEqual(['Plain lease'])
  })
})
