import { lookup } from 'node:dns/promises'
import { BlockList, isIP } from 'node:net'

/** Addresses a webhook may not reach unless private URLs are allowed: the service's own networks. */
const PRIVATE = new BlockList()
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) PRIVATE.addSubnet(net, bits, 'ipv4')
for (const [net, bits] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) PRIVATE.addSubnet(net, bits, 'ipv6')

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4')
  const family = isIP(address)
  return family === 0 || PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

/** Why `url` may not receive webhooks, or null when it may (every address its name resolves to is public). */
export async function urlRefusal(url: string, allowPrivate: boolean): Promise<string | null> {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return 'not a URL'
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'only http and https URLs receive webhooks'
  if (u.username || u.password) return 'credentials in the URL are not allowed'
  if (allowPrivate) return null
  const host = u.hostname.replace(/^\[|\]$/g, '')
  let addresses: string[]
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address)
  } catch {
    return `${host} does not resolve`
  }
  const blocked = addresses.find(isPrivateAddress)
  return blocked ? `${host} resolves to a private or loopback address (${blocked}); set WEBHOOK_ALLOW_PRIVATE_URLS=1 to allow it` : null
}
