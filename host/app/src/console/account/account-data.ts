import type { Me } from '../me.js'

/** GET /api/console/account: what the account page and each of its sections show. */
export interface AccountData {
  user: Me['user']
  sessions: { id: string; current: boolean; createdAt: string; lastSeenAt: string; ip: string; client: string | null }[]
  totp: { enabled: boolean; recoveryCodesLeft: number }
  passkeys: { id: string; name: string; createdAt: string; lastUsedAt: string | null }[]
}
