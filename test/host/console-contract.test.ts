/**
 * The console's contract (host/shared/console-contract.ts) lists exactly the routes the host serves
 * under /api/console, read from the app's router; and the pages' consoleApi takes only its paths
 * and bodies and answers its types: the type check compiles `typedCalls`, where each line marked
 * @ts-expect-error must stay an error.
 * Database: none (the contract, the router and the types).
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { consoleApi } from '../../host/app/src/console/api.js'
import { servedRoutes } from './routes.js'

const contract = readFileSync(resolve(import.meta.dirname, '../../host/shared/console-contract.ts'), 'utf8')
const contractRoutes = [...contract.matchAll(/^\s+'((?:GET|POST|PATCH|DELETE) \/[^']*)':/gm)].map((m) => m[1]!)
const served = servedRoutes()
  .filter((r) => r.path.startsWith('/api/console/'))
  .map((r) => `${r.method} ${r.path.slice('/api/console'.length)}`)

describe('the console contract', () => {
  it('lists every console route the host serves, and no other', () => {
    expect(contractRoutes.length).toBeGreaterThan(40)
    expect(served.filter((r) => !contractRoutes.includes(r)), 'served, not in the contract').toEqual([])
    expect(contractRoutes.filter((r) => !served.includes(r)), 'in the contract, not served').toEqual([])
  })
})

/** Never run: only compiled by the type check. */
export async function typedCalls(api: typeof consoleApi, id: string): Promise<unknown[]> {
  // @ts-expect-error a path the contract does not list
  await api('/team/nope')
  // @ts-expect-error a path built at run time, unknown to the types
  await api(id)
  // @ts-expect-error a GET route called as a POST
  await api('/team/members', { body: {} })
  // @ts-expect-error a body the route does not take
  await api('/team/rename', { body: { title: 'x' } })
  // @ts-expect-error a DELETE where the path has none
  await api('/team/tokens', { method: 'DELETE' })
  const members = await api('/team/members')
  // @ts-expect-error an answer read wrongly
  void members.members
  const revoked: boolean = (await api(`/account/sessions/${encodeURIComponent(id)}/revoke`, { body: {} })).revoked
  const pages: number = (await api(`/team/activity?page=${2}&perPage=25`)).totalPages
  const renamed = await api(`/account/passkeys/${id}`, { method: 'PATCH', body: { name: 'laptop' } })
  return [members.data[0]?.role, revoked, pages, renamed.lastUsedAt]
}
