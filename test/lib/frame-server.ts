import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin serving the scripted frame page (stands in for the signing service). */
    frameHost: string
    /** A second origin serving the same page, for messages from the wrong origin. */
    otherHost: string
  }
}

/**
 * The iframe side of the tests. Every path serves one page that
 * - posts `{__frame: 'loaded', loadId, path, token, options}` to its parent when it loads, with the
 *   options decoded from the hash exactly as docs/protocol.md encodes them;
 * - runs the steps after `~` in its `token` (the query, or the last path segment of a signing page
 *   `.../embed/sign/{token}` or `.../embed/direct/{token}`; JSON) while it loads, and any steps a parent sends
 *   as `{__steps: [...]}` later. A step is `{post: data}` (to the parent), `{nested: data, then?: steps}`
 *   (posted to the parent by a child frame of the same origin), or `{goto: url}`.
 * Paths under `/hang/` never answer, for timeouts; under `/partial/` the page runs but never finishes
 * loading (no load event); under `/silent/` a page loads and says nothing.
 */
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>scripted frame</title></head>
<body style="margin:0"><script>
const signing = location.pathname.split(/\\/embed\\/(?:sign|direct)\\//)[1]
const token = signing !== undefined ? decodeURIComponent(signing) : new URLSearchParams(location.search).get('token') || ''
let options = null
try { options = JSON.parse(decodeURIComponent(atob(location.hash.slice(1)))) } catch {}
function run(steps) {
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]
    if ('post' in step) parent.postMessage(step.post, '*')
    else if ('goto' in step) return void (location.href = step.goto)
    else if ('nested' in step) {
      const child = document.createElement('iframe')
      child.srcdoc = '<script>window.send = (m) => parent.parent.postMessage(m, "*")<' + '/script>'
      child.onload = () => { child.contentWindow.send(step.nested); run(step.then || []); run(steps.slice(i + 1)) }
      document.body.append(child)
      return
    }
  }
}
parent.postMessage({ __frame: 'loaded', loadId: Math.random(), path: location.pathname, search: location.search, token, options }, '*')
addEventListener('message', (e) => { if (e.source === parent && e.data && e.data.__steps) run(e.data.__steps) })
const cut = token.indexOf('~')
if (cut >= 0) run(JSON.parse(token.slice(cut + 1)))
</script></body></html>`

function serve(): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/hang/')) return
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
    // A page that loads and never speaks, like a frame the browser refused (frame-ancestors).
    if (req.url?.startsWith('/silent/')) res.end('<!doctype html><title>silent</title>')
    else if (req.url?.startsWith('/partial/')) res.write(PAGE.replace('</body></html>', ''))
    else res.end(PAGE)
  })
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)))
}

const origin = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`

export default async function setup(project: TestProject) {
  const servers = [await serve(), await serve()]
  project.provide('frameHost', origin(servers[0]!))
  project.provide('otherHost', origin(servers[1]!))
  return async () => {
    for (const s of servers) {
      s.closeAllConnections()
      await new Promise((ok) => s.close(ok))
    }
  }
}
