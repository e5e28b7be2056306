// 1,000 parent re-renders with fresh inline option objects, in real Chromium: how often the iframe
// reloads (must be 0) and what a re-render costs, beside a bare <iframe> with the same URL.
// Run: npx tsx bench/rerender.ts
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { build } from 'esbuild'
import { chromium } from 'playwright-core'
import { chromiumLaunchOptions } from '../test/support/chromium.js'

const RENDERS = 1000

const PAGE_ENTRY = `
import { createElement as h } from 'react'
import { flushSync } from 'react-dom'
import { createRoot } from 'react-dom/client'
import { EmbedUpdateEnvelope } from './src/index.ts'

const host = new URLSearchParams(location.search).get('host')
const options = () => ({
  host,
  presignToken: 'token',
  envelopeId: 'envelope_1',
  externalId: 'order-42',
  css: 'body { color: #111 }',
  cssVars: { primary: '#0a84ff', radius: '6px' },
  features: { allowConfigureLanguage: false, allowConfigureTimezone: true },
  language: 'en',
  style: { minHeight: 400 },
  additionalProps: { allow: 'clipboard-write' },
  onEnvelopeUpdated: () => {},
  onReady: () => {},
})

// Mounts one tree, waits for its frame to load, re-renders it n times; counts iframe insertions,
// src changes and load events after the first load.
async function measure(render) {
  const el = document.createElement('div')
  document.body.append(el)
  const root = createRoot(el)
  let loads = 0
  el.addEventListener('load', () => loads++, true)
  flushSync(() => root.render(render()))
  while (loads === 0) await new Promise((r) => setTimeout(r, 10))
  let changes = 0
  const observer = new MutationObserver((records) => { changes += records.length })
  observer.observe(el, { childList: true, subtree: true, attributes: true, attributeFilter: ['src'] })
  const start = performance.now()
  for (let i = 0; i < ${RENDERS}; i++) flushSync(() => root.render(render()))
  const ms = performance.now() - start
  await new Promise((r) => setTimeout(r, 500)) // a reload would show up by now
  changes += observer.takeRecords().length
  observer.disconnect()
  const url = el.querySelector('iframe').src
  root.unmount()
  el.remove()
  return { ms, reloads: changes + loads - 1, url }
}

window.bench = async () => {
  await measure(() => h(EmbedUpdateEnvelope, options())) // warm-up: JIT and React's first paths
  const embed = await measure(() => h(EmbedUpdateEnvelope, options()))
  const bare = await measure(() => h('iframe', { src: embed.url, title: 'bare', style: { minHeight: 400 } }))
  return { embed, bare }
}
`

const listen = (server: Server) =>
  new Promise<string>((ok) => server.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)))

const bundle = await build({
  stdin: { contents: PAGE_ENTRY, resolveDir: process.cwd(), loader: 'tsx' },
  bundle: true,
  minify: true,
  format: 'esm',
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
  write: false,
  logLevel: 'error',
})
const script = bundle.outputFiles[0]!.text

let frameRequests = 0
const frameServer = createServer((_, res) => {
  frameRequests++
  res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' }).end('<!doctype html><title>frame</title><p>authoring')
})
const pageServer = createServer((req, res) => {
  if (req.url === '/bench.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(script)
  res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>bench</title><script type="module" src="/bench.js"></script>')
})
const frameHost = await listen(frameServer)
const pageHost = await listen(pageServer)

const browser = await chromium.launch(chromiumLaunchOptions)
try {
  const page = await browser.newPage()
  await page.goto(`${pageHost}/?host=${encodeURIComponent(frameHost)}`)
  await page.waitForFunction(() => 'bench' in window)
  const { embed, bare } = await page.evaluate(() => (window as unknown as { bench(): Promise<Record<'embed' | 'bare', { ms: number; reloads: number }>> }).bench())
  const per = (ms: number) => (ms / RENDERS) * 1000
  console.log(`rerender: ${RENDERS} parent re-renders with fresh inline options (Chromium, production React)`)
  console.log(`  EmbedUpdateEnvelope: ${embed.reloads} iframe reloads, ${per(embed.ms).toFixed(1)} µs per re-render`)
  console.log(`  bare <iframe>:       ${bare.reloads} iframe reloads, ${per(bare.ms).toFixed(1)} µs per re-render`)
  console.log(`  ratio embed/bare: ${(embed.ms / bare.ms).toFixed(2)}; frame documents requested: ${frameRequests} (one per tree)`)
  if (embed.reloads !== 0 || frameRequests !== 3) process.exitCode = 1
} finally {
  await browser.close()
  frameServer.closeAllConnections()
  frameServer.close()
  pageServer.close()
}
