/**
 * A console member at HTTP level, as the browser is: a cookie jar of one session, the session's
 * anti-forgery token, and the host's own Origin on every request.
 */
import type { Db } from '../../host/server/db/index.js'
import { addMember } from '../../host/server/people/members.js'
import type { Role } from '../../host/server/people/roles.js'
import { defaultTeamId } from '../../host/server/domain/team/teams.js'
import { hashPassword } from '../../host/server/people/passwords.js'
import { createUser, hasUsers } from '../../host/server/people/users.js'

export interface ConsoleClient {
  cookie: string
  csrf: string
  /** `/api/console{path}` with the session. */
  console(path: string, init?: { method?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response>
  /** `/api/v2{path}` with the session instead of a token. */
  v2(path: string, init?: { method?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response>
}

export const TEST_PASSWORD = 'correct horse battery'
let testHash: Promise<string> | undefined

/**
 * A verified account, member of `teamId` with `role` when given; the first account of the
 * instance is also made ADMIN of the default team, as the operator does with `user create --admin`.
 */
export async function makeUser(db: Db, email: string, o: { teamId?: string; role?: Role; password?: string } = {}) {
  const password = o.password ?? TEST_PASSWORD
  // The usual password's hash is made once per process, at a thirty-second of scrypt's production
  // cost (N = 2^10 against 2^15), and stored as is. The cost travels in the stored hash, so every
  // sign-in of these accounts checks it at that cost too: some 4 ms of CPU instead of 120, over
  // hundreds of sign-ins. Accounts made through the product's own doors (sign-up, the CLI, a
  // password of `o.password`) are hashed and checked at the production cost.
  const usual = password === TEST_PASSWORD ? await (testHash ??= hashPassword(TEST_PASSWORD, { N: 2 ** 10, r: 8, p: 1 })) : null
  return db.transaction(async (tx) => {
    const first = !(await hasUsers(tx))
    const made = (await createUser(tx, { email, verified: true, ...(usual ? {} : { password }) })).user
    if (usual) await tx.query('update users set password_hash = $1 where id = $2', [usual, made.id])
    const user = usual ? { ...made, hasPassword: true } : made
    if (first) await addMember(tx, { teamId: await defaultTeamId(tx), userId: user.id, role: 'ADMIN' })
    if (o.teamId) await addMember(tx, { teamId: o.teamId, userId: user.id, role: o.role ?? 'MEMBER' })
    return user
  })
}

/** The session cookie a Set-Cookie header starts. */
export const sessionCookieOf = (res: Response) => /(?:__Host-)?envelope_session=[^;]*/.exec(res.headers.get('set-cookie') ?? '')?.[0] ?? ''

export function consoleClient(url: string, cookie: string, csrf: string): ConsoleClient {
  const send = (base: string) => (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    fetch(`${url}${base}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        cookie,
        origin: url,
        'x-csrf-token': csrf,
        ...(init.body !== undefined && { 'content-type': 'application/json' }),
        ...init.headers,
      },
      ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
    })
  return { cookie, csrf, console: send('/api/console'), v2: send('/api/v2') }
}

/** Signs in with e-mail and password; throws unless the console opens at once (no second factor). */
export async function signInAs(url: string, email: string, password = TEST_PASSWORD): Promise<ConsoleClient> {
  const res = await fetch(`${url}/api/console/auth/sign-in`, {
    method: 'POST',
    headers: { origin: url, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  })
  if (!res.ok) throw new Error(`sign-in as ${email}: ${res.status} ${await res.text()}`)
  const cookie = sessionCookieOf(res)
  const me = await fetch(`${url}/api/console/me`, { headers: { cookie } })
  const body = (await me.json()) as { csrfToken?: string }
  if (!body.csrfToken) throw new Error(`sign-in as ${email}: no session (${JSON.stringify(body)})`)
  return consoleClient(url, cookie, body.csrfToken)
}
