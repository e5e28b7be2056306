import type { LookupAddress } from 'node:dns'
import { isIP } from 'node:net'
import { Agent as HttpAgent, request as httpRequest, type RequestOptions } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import { AddressRefused, publicAddresses, type Resolve } from './addresses.js'

export interface PostResult {
  /** The receiver's status, or null when it never answered (refused, timed out, ...). */
  status: number | null
  /** The first KiB of its answer. */
  body: string | null
  error: string | null
  durationMs: number
}

const MAX_ANSWER = 1024

/**
 * Connections stay open between deliveries to the same receiver, closed after 5 s unused. A pool
 * holds only connections made to checked addresses; one per address policy, so that a connection
 * made where private addresses were allowed is never reused where they are not.
 */
const pool = () => {
  const o = { keepAlive: true, timeout: 5_000, maxFreeSockets: 16, scheduling: 'lifo' as const }
  return { http: new HttpAgent(o), https: new HttpsAgent(o) }
}
const pools = { checked: pool(), private: pool() }

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
  const u = new URL(url)
  let addresses: string[]
  try {
    // Resolved and checked once, then connected to exactly what was checked (no second lookup
    // that a short-lived DNS answer could turn towards the inside).
    addresses = await publicAddresses(u.hostname, o)
  } catch (err) {
    if (!(err instanceof AddressRefused)) throw err
    return { status: null, body: null, error: err.message, durationMs: Math.round(performance.now() - started) }
  }
  const pinned = addresses.map((address) => ({ address, family: isIP(address) }))
  const lookup: RequestOptions['lookup'] = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, pinned)
    callback(null, pinned[0]!.address, pinned[0]!.family)
  }
  return new Promise((resolve) => {
    let settled = false
    let timer: NodeJS.Timeout | undefined
    const done = (r: Omit<PostResult, 'durationMs'>) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve({ ...r, durationMs: Math.round(performance.now() - started) })
    }
    const req = (u.protocol === 'https:' ? httpsRequest : httpRequest)(
      u,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        lookup,
        agent: pools[o.allowPrivate ? 'private' : 'checked'][u.protocol === 'https:' ? 'https' : 'http'],
      },
      (res) => {
        let answer = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          if (answer.length < MAX_ANSWER) answer += chunk.slice(0, MAX_ANSWER - answer.length)
        })
        res.on('end', () => done({ status: res.statusCode ?? null, body: answer, error: null }))
        res.on('error', (err) => done({ status: res.statusCode ?? null, body: answer, error: err.message }))
      },
    )
    timer = setTimeout(() => {
      req.destroy()
      done({ status: null, body: null, error: `no answer within ${o.timeoutMs} ms` })
    }, o.timeoutMs)
    req.on('error', (err) => done({ status: null, body: null, error: err.message }))
    req.end(body)
  })
}
