/**
 * Webhook addresses: private addresses refused in every spelling, when saved and when called.
 * Database: none (no host).
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { isPrivateAddress, urlRefusal, type Resolve } from '../../host/server/webhooks/addresses.js'
import { postJson } from '../../host/server/webhooks/post.js'

/** Every IPv6 spelling of a private IPv4 address, and the IPv6 ranges of the service's own network. */
const PRIVATE = [
  '127.0.0.1', '10.0.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0',
  '::', '::1', 'fe80::1', 'fe80::1%eth0', 'fc00::1', 'fd12::1', 'fec0::1', 'feff::1', 'ff02::1',
  '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:0:7f00:1', '::ffff:0:a00:1', // mapped, translated
  '::7f00:1', '::127.0.0.1', '::a00:1', '::c0a8:101', // IPv4-compatible
  '64:ff9b::7f00:1', '64:ff9b::10.0.0.1', '64:ff9b::a9fe:a9fe', '64:ff9b:1::8.8.8.8', // NAT64
  '2002:7f00:1::1', '2002:a00:1::', '2002:c0a8:101::1', // 6to4
  '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo, client 127.0.0.1 (inverted)
  '2001:0:7f00:1::1', // Teredo, server 127.0.0.1
  'not-an-address', '',
]
const PUBLIC = ['8.8.8.8', '2606:4700::1111', '64:ff9b::808:808', '2002:808:808::1', '2001:0:4136:e378:8000:63bf:f7f7:f7f7', '::ffff:8.8.8.8']

describe('webhook addresses', () => {
  it('refuses every form of a private address and accepts public ones', () => {
    for (const a of PRIVATE) expect(isPrivateAddress(a), a).toBe(true)
    for (const a of PUBLIC) expect(isPrivateAddress(a), a).toBe(false)
  })

  it('refuses IPv6 literals and names that resolve to private addresses when saved', async () => {
    for (const host of ['[::7f00:1]', '[64:ff9b::7f00:1]', '[fec0::1]', '[2002:7f00:1::1]', '[::ffff:127.0.0.1]']) {
      expect(await urlRefusal(`http://${host}/hook`, false), host).toMatch(/private/)
    }
    const resolve: Resolve = async () => ['93.184.215.14', '::7f00:1']
    expect(await urlRefusal('https://bed.cafe/hook', false, resolve)).toMatch(/private or loopback address \(::7f00:1\)/)
    expect(await urlRefusal('https://bed.cafe/hook', false, async () => ['93.184.215.14'])).toBeNull()
  })

  it('checks the addresses again when connecting and connects only to what it checked', async () => {
    let hits = 0
    const server = createServer((_req, res) => {
      hits++
      res.end('ok')
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const port = (server.address() as AddressInfo).port
    try {
      const o = { timeoutMs: 2000, allowPrivate: false }
      // A name of hex letters and dots looked like an address literal and crashed the delivery.
      for (const answer of ['127.0.0.1', '::7f00:1', '64:ff9b::7f00:1', 'fec0::1']) {
        const r = await postJson(`http://bed.cafe:${port}/hook`, '{}', {}, { ...o, resolve: async () => [answer] })
        expect([r.status, r.error], answer).toEqual([null, expect.stringMatching(/private/)])
      }
      const literal = await postJson(`http://[::ffff:127.0.0.1]:${port}/hook`, '{}', {}, o)
      expect(literal.error).toMatch(/private/)
      expect(hits).toBe(0)
      // Allowed: the name is connected to the address it resolved to.
      const ok = await postJson(`http://bed.cafe:${port}/hook`, '{}', {}, { ...o, allowPrivate: true, resolve: async () => ['127.0.0.1'] })
      expect([ok.status, ok.body, ok.error]).toEqual([200, 'ok', null])
      expect(hits).toBe(1)
    } finally {
      server.close()
    }
  })
})
