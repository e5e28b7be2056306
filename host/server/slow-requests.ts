import type { Server } from 'node:http'
import type { Socket } from 'node:net'
import type { Duplex } from 'node:stream'

/**
 * Time budgets of one request: `headersTimeoutMs` for its headers, `requestTimeoutMs` for the
 * whole of it, body included. Node enforces both (checking every `checkEveryMs`); a client too
 * slow for them (a body trickled a byte at a time holds a connection and its upload buffer) gets
 * 408 `{message, code: 'REQUEST_TIMEOUT'}` and the connection is closed. Other malformed HTTP
 * gets the API's error shape as well, instead of Node's bare status line.
 */
export function requestBudgets(o: { requestTimeoutMs: number; headersTimeoutMs: number }) {
  const requestTimeout = o.requestTimeoutMs
  // Node requires headersTimeout <= requestTimeout (0 turns a budget off).
  const headersTimeout = requestTimeout > 0 ? Math.min(o.headersTimeoutMs, requestTimeout) : o.headersTimeoutMs
  const shortest = Math.min(...[requestTimeout, headersTimeout].filter((ms) => ms > 0), 30_000)
  return {
    requestTimeout,
    headersTimeout,
    // How late a budget may be noticed: a quarter of the shortest one, at most Node's default 30 s.
    connectionsCheckingInterval: Math.max(25, Math.floor(shortest / 4)),
  }
}

const ANSWERS: Record<string, [number, string, string, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'REQUEST_TIMEOUT', 'the request was not received in time; send it faster'],
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'HEADERS_TOO_LARGE', 'the request headers are too large'],
}
const MALFORMED: [number, string, string, string] = [400, 'Bad Request', 'INVALID_REQUEST', 'malformed HTTP request']
/**
 * How long a refused client keeps its connection after the answer, to read it. Ending our side
 * alone is not enough: a client that keeps its own side open and goes on trickling bytes would
 * hold the connection for as long as it likes, so it is destroyed after this grace.
 */
export const LINGER_MS = 1_000

/** Answers what Node refuses before the app sees it (see requestBudgets) in the API's error shape. */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex & { _httpMessage?: { headersSent?: boolean } }) => {
    // A peer that went away, or an answer already under way: nothing can be said any more.
    if (err.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent) return void socket.destroy()
    const [status, reason, code, message] = ANSWERS[err.code ?? ''] ?? MALFORMED
    const body = JSON.stringify({ message, code })
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    )
    setTimeout(() => socket.destroy(), LINGER_MS).unref()
  })
}

/**
 * A connection that ends with an answer (`Connection: close`, app.ts) lingers: our side is ended
 * after the answer and the rest of what the client sends is still read (and dropped) for
 * LINGER_MS, then the socket is destroyed. Destroying at once, as Node does, with an upload still
 * arriving makes the kernel answer it with a reset, and a client still sending its body may lose
 * the answer it was given (a 401 or 413 to a large upload) to that reset.
 */
export function lingerBeforeClosing(server: Server): void {
  server.on('connection', (socket: Socket) => {
    // Node's HTTP server ends a connection with destroySoon() once its last answer is written.
    socket.destroySoon = function (this: Socket) {
      if (this.destroyed) return
      this.end()
      setTimeout(() => this.destroy(), LINGER_MS).unref()
    }
  })
}
