import { lookup as dnsLookup } from 'node:dns/promises'
import { BlockList, isIP } from 'node:net'

/** Addresses a webhook may not reach unless private URLs are allowed: the service's own networks. */
const PRIVATE = new BlockList()
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) PRIVATE.addSubnet(net, bits, 'ipv4')
for (const [net, bits] of [
  ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
  // NAT64 for local use only (RFC 8215): translates to whatever the operator's network holds.
  ['64:ff9b:1::', 48],
] as const) PRIVATE.addSubnet(net, bits, 'ipv6')

/** The eight 16-bit groups of an IPv6 address (a trailing dotted quad included), or null. */
function groups(address: string): number[] | null {
  let text = address
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  if (quad) {
    const b = quad.slice(1).map(Number)
    text = `${text.slice(0, quad.index)}${((b[0]! << 8) | b[1]!).toString(16)}:${((b[2]! << 8) | b[3]!).toString(16)}`
  }
  const [head, tail] = text.split('::') as [string, string | undefined]
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : [])
  const h = part(head)
  const t = part(tail)
  const out = tail === undefined ? h : [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t]
  return out.length === 8 && out.every((g) => g >= 0 && g <= 0xffff) ? out : null
}

const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`

/**
 * The IPv4 addresses an IPv6 address stands for: IPv4-mapped (::ffff:0:0/96), IPv4-translated
 * (::ffff:0:0:0/96), IPv4-compatible (::/96), NAT64 (64:ff9b::/96), 6to4 (2002::/16) and Teredo
 * (2001::/32: its server, and its client with every bit inverted). A packet to any of them ends
 * up at that IPv4 address, so each must pass the IPv4 check.
 */
function embeddedIpv4(g: number[]): string[] {
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0)
  if (zeros(5) && g[5] === 0xffff) return [v4(g[6]!, g[7]!)]
  if (zeros(4) && g[4] === 0xffff && g[5] === 0) return [v4(g[6]!, g[7]!)]
  if (zeros(6)) return [v4(g[6]!, g[7]!)]
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return [v4(g[6]!, g[7]!)]
  if (g[0] === 0x2002) return [v4(g[1]!, g[2]!)]
  if (g[0] === 0x2001 && g[1] === 0) return [v4(g[2]!, g[3]!), v4(g[6]! ^ 0xffff, g[7]! ^ 0xffff)]
  return []
}

/** True for anything that is not a public unicast address (a non-address included). */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  const family = isIP(bare)
  if (family === 4) return PRIVATE.check(bare, 'ipv4')
  if (family !== 6) return true
  const g = groups(bare)
  if (!g) return true
  const inner = embeddedIpv4(g)
  return inner.length > 0 ? inner.some((a) => PRIVATE.check(a, 'ipv4')) : PRIVATE.check(bare, 'ipv6')
}

/** Name resolution (every address of a name); tests put a fake one in place of DNS. */
export type Resolve = (host: string) => Promise<string[]>
export const systemResolve: Resolve = async (host) => (await dnsLookup(host, { all: true })).map((a) => a.address)

/** A refusal to reach a webhook address (saving it, or connecting to it). */
export class AddressRefused extends Error {}

/**
 * The one address check of webhooks, when a URL is saved and again when each delivery connects:
 * the addresses `host` (a name or an IP literal, bracketed or not) stands for, every one of them
 * public unless private ones are allowed. Throws AddressRefused otherwise.
 */
export async function publicAddresses(host: string, o: { allowPrivate: boolean; resolve?: Resolve | undefined }): Promise<string[]> {
  const bare = host.replace(/^\[|\]$/g, '')
  let addresses: string[]
  try {
    addresses = isIP(bare) ? [bare] : await (o.resolve ?? systemResolve)(bare)
  } catch {
    throw new AddressRefused(`${bare} does not resolve`)
  }
  if (addresses.length === 0) throw new AddressRefused(`${bare} does not resolve`)
  const blocked = o.allowPrivate ? undefined : addresses.find(isPrivateAddress)
  if (blocked) throw new AddressRefused(`${bare} resolves to a private or loopback address (${blocked}); set WEBHOOK_ALLOW_PRIVATE_URLS=1 to allow it`)
  return addresses
}

/** Why `url` may not receive webhooks, or null when it may (every address its name resolves to is public). */
export async function urlRefusal(url: string, allowPrivate: boolean, resolve?: Resolve): Promise<string | null> {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return 'not a URL'
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'only http and https URLs receive webhooks'
  if (u.username || u.password) return 'credentials in the URL are not allowed'
  if (allowPrivate) return null
  try {
    await publicAddresses(u.hostname, { allowPrivate, resolve })
    return null
  } catch (err) {
    if (err instanceof AddressRefused) return err.message
    throw err
  }
}
