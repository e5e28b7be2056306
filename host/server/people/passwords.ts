import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

/**
 * Passwords are hashed with scrypt (memory-hard, in node:crypto): N = 2^15, r = 8, p = 1, which
 * takes 32 MiB and about 100 ms per hash on one core of the reference machine, with a 16-byte random salt and a 32-byte
 * key. The parameters travel in the stored string, so raising them later still verifies old
 * hashes (and rehashing on the next sign-in can follow). Runs on libuv's thread pool, not the loop.
 */
const PARAMS = { N: 2 ** 15, r: 8, p: 1 }
/** scrypt's cost parameters, as a stored hash carries them. */
type Cost = typeof PARAMS
const KEY_BYTES = 32
/** Longer input is refused before hashing: what a stranger sends must not decide our cost. */
export const MAX_PASSWORD_LENGTH = 256
export const MIN_PASSWORD_LENGTH = 10

function derive(password: string, salt: Buffer, o: Cost): Promise<Buffer> {
  const options: ScryptOptions = { ...o, maxmem: 256 * o.N * o.r }
  return new Promise((resolve, reject) => scrypt(password.normalize('NFKC'), salt, KEY_BYTES, options, (err, key) => (err ? reject(err) : resolve(key))))
}

/** `params`: other costs than the production ones, for accounts made by a test suite (verification reads them from the hash). */
export async function hashPassword(password: string, params: Cost = PARAMS): Promise<string> {
  const salt = randomBytes(16)
  const key = await derive(password, salt, params)
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64url')}$${key.toString('base64url')}`
}

/** Whether `password` matches `stored`; a malformed or absent hash matches nothing (after the same work). */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = stored?.split('$') ?? []
  const [kind, n, r, p, salt, key] = parts
  const valid = parts.length === 6 && kind === 'scrypt' && Number(n) <= 2 ** 20 && Number(r) <= 16 && Number(p) <= 4
  // Without a hash, the same work anyway: the time of an answer does not tell whether the account exists.
  const expected = valid ? Buffer.from(key!, 'base64url') : Buffer.alloc(KEY_BYTES)
  const got = await derive(password.slice(0, MAX_PASSWORD_LENGTH), valid ? Buffer.from(salt!, 'base64url') : Buffer.alloc(16), valid ? { N: Number(n), r: Number(r), p: Number(p) } : PARAMS)
  return valid && got.length === expected.length && timingSafeEqual(got, expected)
}

/** Why a new password is refused, or null. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `the password must have at least ${MIN_PASSWORD_LENGTH} characters`
  if (password.length > MAX_PASSWORD_LENGTH) return `the password must have at most ${MAX_PASSWORD_LENGTH} characters`
  return null
}
