import { connect } from 'node:net'

export interface RawAnswer {
  /** 0 when no answer came within the deadline (the server waited for the body). */
  status: number
  body: any
}

/**
 * One request over a plain socket: its head (with the Content-Length given, whatever follows),
 * then `body` if any, then the answer. A server that refuses from the head alone answers although
 * the body it was promised never comes; one that reads the body first never does (status 0 after
 * `deadlineMs`, a deadline for a hang, not a time limit on the answer).
 */
export function rawRequest(url: string, method: string, path: string, headers: Record<string, string>, body?: Buffer, deadlineMs = 30_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname)
    let data = Buffer.alloc(0)
    const done = (answer: RawAnswer) => {
      clearTimeout(timer)
      socket.destroy()
      resolve(answer)
    }
    const timer = setTimeout(() => done({ status: 0, body: null }), deadlineMs)
    socket.on('error', () => done(parse(data, true) ?? { status: 0, body: null }))
    socket.on('end', () => done(parse(data, true) ?? { status: 0, body: null }))
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk])
      const answer = parse(data)
      if (answer) done(answer)
    })
    socket.on('connect', () => {
      const head = [`${method} ${path} HTTP/1.1`, `Host: ${hostname}:${port}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), '', ''].join('\r\n')
      socket.write(head)
      if (body) socket.write(body)
    })
  })
}

/** The answer once its head and its Content-Length of body have arrived (or, at the end, whatever came). */
function parse(data: Buffer, ended = false): RawAnswer | null {
  const end = data.indexOf('\r\n\r\n')
  if (end === -1) return null
  const head = data.subarray(0, end).toString('latin1')
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)
  const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? NaN)
  const rest = data.subarray(end + 4)
  if (!ended && (!Number.isFinite(length) || rest.length < length)) return null
  const text = rest.subarray(0, Number.isFinite(length) ? length : rest.length).toString('utf8')
  let body: any = text
  try {
    body = JSON.parse(text)
  } catch {}
  return { status, body }
}
