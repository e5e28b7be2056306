import type { LookupAddress } from 'node:dns'
import { isIP } from 'node:net'
import type { Readable } from 'node:stream'
import { Agent } from 'undici'
import { AddressRefused, publicAddresses, systemResolve, type Resolve } from './addresses.js'

export interface PostResult {
  /** The receiver's status, or null when it never answered (refused, timed out, ...). */
  status: number | null
  /** The first KiB of its answer. */
  body: string | null
  error: string | null
  durationMs: number
}

const MAX_ANSWER = 1024

type LookupCallback = (err: Error | null, address: string | LookupAddress[], family?: number) => void

/**
 * Connections to receivers, through undici (half the CPU of node:http for the same POST, measured
 * in bench/delivery.ts): kept open between deliveries, closed after 5 s unused, and a receiver's
 * origin forgotten with its last connection (undici 7; 6 kept every origin it had seen). One pool
 * per address policy and name resolution, so that a connection made where private addresses were
 * allowed is never reused where they are not. A name is resolved and checked when a connection is
 * made, and that connection goes to exactly what was checked: no second lookup that a
 * short-lived DNS answer could turn towards the inside.
 */
const pools = new Map<Resolve, { checked?: Agent; private?: Agent }>()
function pool(allowPrivate: boolean, resolve: Resolve): Agent {
  const mine = pools.get(resolve) ?? pools.set(resolve, {}).get(resolve)!
  const policy = allowPrivate ? 'private' : 'checked'
  return (mine[policy] ??= new Agent({
    keepAliveTimeout: 5_000,
    keepAliveMaxTimeout: 5_000,
    connect: {
      lookup: (host: string, options: { all?: boolean }, callback: LookupCallback) => {
        publicAddresses(host, { allowPrivate, resolve }).then(
          (addresses) => {
            const pinned = addresses.map((address) => ({ address, family: isIP(address) }))
            if (options.all) callback(null, pinned)
            else callback(null, pinned[0]!.address, pinned[0]!.family)
          },
          (err: Error) => callback(err, ''),
        )
      },
    },
  }))
}

/** The receivers' origins the pools hold now (connections open, or being made). */
export const heldOrigins = (): number =>
  [...pools.values()].flatMap((p) => [p.checked, p.private]).reduce((n, agent) => n + (agent ? Object.keys(agent.stats).length : 0), 0)

/**
 * One POST of a webhook: no redirect is followed, the whole exchange is cut at `timeoutMs`, and
 * unless private URLs are allowed the address is checked when the connection is made (not only
 * when the webhook was saved), so a name that later resolves inside the network is refused too.
 */
export async function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  o: { timeoutMs: number; allowPrivate: boolean; resolve?: Resolve | undefined },
): Promise<PostResult> {
  const started = performance.now()
  const result = (r: Omit<PostResult, 'durationMs'>): PostResult => ({ ...r, durationMs: Math.round(performance.now() - started) })
  const u = new URL(url)
  // An address literal is connected to without a lookup: checked here.
  if (!o.allowPrivate && isIP(u.hostname.replace(/^\[|\]$/g, ''))) {
    try {
      await publicAddresses(u.hostname, o)
    } catch (err) {
      if (!(err instanceof AddressRefused)) throw err
      return result({ status: null, body: null, error: err.message })
    }
  }
  // The timer settles it, and cuts the answer if one is under way; undici's own timeouts (a second
  // later for the headers) end a request still waiting, and an answer that comes meanwhile is
  // thrown away. No AbortSignal: it cost a third of a POST.
  return new Promise((resolve) => {
    let settled = false
    let answer: Readable | undefined
    const done = (r: Omit<PostResult, 'durationMs'>) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(result(r))
    }
    const timer = setTimeout(() => {
      answer?.destroy()
      done({ status: null, body: null, error: `no answer within ${o.timeoutMs} ms` })
    }, o.timeoutMs)
    pool(o.allowPrivate, o.resolve ?? systemResolve)
      .request({ origin: u.origin, path: `${u.pathname}${u.search}`, method: 'POST', headers, body, headersTimeout: o.timeoutMs + 1_000, bodyTimeout: o.timeoutMs })
      .then(
        (res) => {
          answer = res.body
          let text = ''
          // Cut before its end (by the timer, or here when it came too late), undici's answer stream
          // fails: listened to before anything can cut it, so that is never an uncaught error.
          res.body.on('error', (err) => done({ status: res.statusCode, body: text, error: describe(err) }))
          if (settled) return void res.body.destroy()
          // Read to the end (the connection then serves the next delivery), only the first KiB kept.
          res.body.setEncoding('utf8')
          res.body.on('data', (chunk: string) => {
            if (text.length < MAX_ANSWER) text += chunk.slice(0, MAX_ANSWER - text.length)
          })
          res.body.on('end', () => done({ status: res.statusCode, body: text, error: null }))
        },
        (err: unknown) => done({ status: null, body: null, error: err instanceof AddressRefused ? err.message : describe(err) }),
      )
  })
}

/** An error's message, and its cause's when it has one. */
function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err)
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : ''
  return `${err.message || (err as { code?: string }).code || 'request failed'}${cause}`
}
