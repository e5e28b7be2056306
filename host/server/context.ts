import type { KeyObject } from 'node:crypto'
import type { Principal } from './auth/principal.js'
import type { PresignKey } from './auth/presign.js'
import type { TokenOwner } from './auth/api-tokens.js'
import type { Cache } from './cache.js'
import type { HostConfig } from './config.js'
import type { Db } from './db/index.js'
import type { CachedEnvelope } from './domain/envelope/lookup.js'
import type { TeamEmbedding } from './domain/team/teams.js'
import type { Clock } from './jobs/clock.js'
import type { SealingKey } from './pdf/sealing-key.js'
import type { RateLimiter } from './api/rate-limit.js'

// The types every layer is handed, kept apart from the HTTP helpers so that code below the doors
// (auth, people, domain) can take the host context without importing api/.

/** The host's read-through caches (cache.ts), one per kind of value. */
export interface HostCaches {
  /** Live API tokens by `token:<the token>` and `id:<token id>`; dropped whole on any token change. */
  tokens: Cache<TokenOwner>
  /** Envelope resources (serialized) by envelope id, for GET /envelope/{id}. */
  envelopes: Cache<CachedEnvelope>
  /** Teams' embedding settings by team id, for the pages' framing rule. */
  teams: Cache<TeamEmbedding>
}

/** What every handler can reach: the database, its caches, settings and the presign key. */
export interface HostContext {
  db: Db
  cache: HostCaches
  config: HostConfig
  presignSecret: PresignKey
  /** The certificate completed documents are sealed with (made on first use, then kept). */
  sealingKey: () => Promise<SealingKey>
  /** The time deadlines and reminders are scheduled from (tests drive it). */
  clock: Clock
  /** Fair use: requests per token (or address) and window. */
  rateLimit: RateLimiter
  /** The key of the links sent by e-mail (people/links.ts). */
  linkKey: KeyObject
}

/** What a request carries once authenticated. */
export type AppEnv = { Variables: { principal: Principal } }
