/** Webhook calls as a receiver gets them, and their signature checked by another implementation of the scheme. */
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

export interface Call {
  headers: IncomingHttpHeaders
  body: string
}

/** A receiver that keeps each call's headers and raw body; it checks nothing itself. */
export async function receiver() {
  const calls: Call[] = []
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    calls.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
    res.writeHead(200).end()
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    calls,
    close: () => {
      server.closeAllConnections()
      return new Promise<void>((r) => server.close(() => r()))
    },
  }
}

export const signatureHeaders = (call: Call) => ({
  'webhook-id': String(call.headers['webhook-id']),
  'webhook-timestamp': String(call.headers['webhook-timestamp']),
  'webhook-signature': String(call.headers['webhook-signature']),
})

/** Whether `key` signed the call, checked by standardwebhooks, an implementation of the scheme written by others. */
export function verifiedElsewhere(key: string, call: Call): boolean {
  const checker = key.startsWith('whsec_') ? new Webhook(key) : new Webhook(Buffer.from(key, 'utf8'), { format: 'raw' })
  try {
    checker.verify(call.body, signatureHeaders(call))
    return true
  } catch {
    return false
  }
}
