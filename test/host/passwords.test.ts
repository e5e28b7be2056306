/**
 * Password hashes (host/server/people/passwords.ts): the production cost is what a new hash
 * carries, and verification reads the cost from the stored hash. The console's test accounts
 * (makeUser) are hashed at a lower cost for speed; this file holds the production one.
 * Database: none.
 */
import { describe, expect, it } from 'vitest'
import { hashPassword, verifyPassword } from '../../host/server/people/passwords.js'

describe('password hashes', () => {
  it('are scrypt at N = 2^15, r = 8, p = 1 with a 16-byte salt and a 32-byte key, each salted anew', async () => {
    const [a, b] = await Promise.all([hashPassword('correct horse battery'), hashPassword('correct horse battery')])
    const [kind, n, r, p, salt, key] = a.split('$')
    expect([kind, n, r, p]).toEqual(['scrypt', '32768', '8', '1'])
    expect(Buffer.from(salt!, 'base64url')).toHaveLength(16)
    expect(Buffer.from(key!, 'base64url')).toHaveLength(32)
    expect(b).not.toBe(a)
  })

  it('verify the password they were made from, in any Unicode normalization form, and nothing else', async () => {
    const stored = await hashPassword('café au lait 1')
    expect(await verifyPassword('café au lait 1', stored)).toBe(true)
    expect(await verifyPassword('cafe\u0301 au lait 1', stored)).toBe(true)
    expect(await verifyPassword('café au lait 2', stored)).toBe(false)
  })

  it('carry their cost: a hash made at another cost verifies at that cost; an absent, malformed or too costly one matches nothing', async () => {
    const cheap = await hashPassword('correct horse battery', { N: 2 ** 10, r: 8, p: 1 })
    expect(cheap.startsWith('scrypt$1024$8$1$')).toBe(true)
    expect(await verifyPassword('correct horse battery', cheap)).toBe(true)
    expect(await verifyPassword('wrong horse battery', cheap)).toBe(false)
    expect(await verifyPassword('correct horse battery', null)).toBe(false)
    expect(await verifyPassword('correct horse battery', 'scrypt$1024$8$1$only-five')).toBe(false)
    expect(await verifyPassword('correct horse battery', cheap.replace('scrypt$1024$', `scrypt$${2 ** 21}$`))).toBe(false)
  })
})
