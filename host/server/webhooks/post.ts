import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { request as httpRequest, type RequestOptions } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isPrivateAddress } from './addresses.js'

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
 * One POST of a webhook: no redirect is followed, the whole exchange is cut at `timeoutMs`, and
 * unless private URLs are allowed the address is checked when the connection is made (not only
 * when the webhook was saved), so a name that later resolves inside the network is refused too.
 */
export function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  o: { timeoutMs: number; allowPrivate: boolean },
): Promise<PostResult> {
  const started = performance.now()
  const u = new URL(url)
  const lookup: RequestOptions['lookup'] = (host, options, callback) =>
    dnsLookup(host, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 4)
      const blocked = !o.allowPrivate && addresses.find((a) => isPrivateAddress(a.address))
      if (blocked) return callback(new Error(`${host} resolves to a private address (${blocked.address})`), '', 4)
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses)
      callback(null, addresses[0]!.address, addresses[0]!.family)
    })
  return new Promise((resolve) => {
    let settled = false
    const done = (r: Omit<PostResult, 'durationMs'>) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve({ ...r, durationMs: Math.round(performance.now() - started) })
    }
    const direct = /^\[?[\d.:a-f]+\]?$/i.test(u.hostname)
    if (direct && !o.allowPrivate && isPrivateAddress(u.hostname.replace(/^\[|\]$/g, ''))) {
      return done({ status: null, body: null, error: `${u.hostname} is a private address` })
    }
    const req = (u.protocol === 'https:' ? httpsRequest : httpRequest)(
      u,
      { method: 'POST', headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) }, lookup, agent: false },
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
    const timer = setTimeout(() => {
      req.destroy()
      done({ status: null, body: null, error: `no answer within ${o.timeoutMs} ms` })
    }, o.timeoutMs)
    req.on('error', (err) => done({ status: null, body: null, error: err.message }))
    req.end(body)
  })
}
