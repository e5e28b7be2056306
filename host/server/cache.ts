import type { Db } from './db/index.js'

/**
 * A read-through cache that is only trusted while the database's notifications are live. Any
 * invalidation bumps a version; a value loaded across a bump is returned but not kept, so a
 * read racing a commit can never leave the old state behind.
 */
export class Cache<V> {
  private readonly entries = new Map<string, V>()
  private version = 0

  constructor(
    private readonly db: Pick<Db, 'notificationsLive'>,
    private readonly max = 10_000,
  ) {}

  async load(key: string, loader: () => Promise<V | null>): Promise<V | null> {
    if (this.db.notificationsLive) {
      const hit = this.entries.get(key)
      if (hit !== undefined) return hit
    }
    const version = this.version
    const value = await loader()
    if (value !== null && version === this.version && this.db.notificationsLive) {
      if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!)
      this.entries.set(key, value)
    }
    return value
  }

  invalidate(key: string | null): void {
    this.version++
    if (key === null) this.entries.clear()
    else this.entries.delete(key)
  }
}

/** Channels on which writers announce changes that cached readers must drop. */
export const CHANNELS = { envelopes: 'envelopes', apiTokens: 'api_tokens', teams: 'teams' } as const
