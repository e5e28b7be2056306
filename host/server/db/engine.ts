/**
 * What both database engines implement and share, apart from openDb (index.ts) so that the
 * engines and the migrations, which index.ts loads, do not import it back.
 */
import { createHash } from 'node:crypto'
import type { FileStore } from '../storage/file-store.js'

export type Row = Record<string, unknown>

/**
 * A statement run often enough to keep prepared: on PostgreSQL it is parsed and planned once per
 * connection, under its name, rather than on every call (the embedded engine prepares every text).
 */
export interface Statement {
  readonly name: string
  readonly text: string
}

export const statement = (text: string): Statement => ({ name: `s_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`, text })

export interface Queryable {
  /** One statement with $1.. parameters. */
  query<T = Row>(sql: string | Statement, params?: unknown[]): Promise<T[]>
  /** Several statements, no parameters (migrations). */
  exec(sql: string): Promise<void>
  /**
   * Announces a change to the listeners of `channel` in every process on this database, once and
   * only if the surrounding transaction commits (this process's listeners before commit returns).
   */
  notify(channel: string, payload: string): Promise<void>
  /** Where the bytes of files whose row holds none live (STORAGE_URL); null: in their rows. */
  readonly files: FileStore | null
}

/** Receives a committed notification's payload, or null when some may have been missed. */
export type Listener = (payload: string | null) => void

export interface Db extends Queryable {
  readonly engine: 'pglite' | 'postgres'
  /** Runs fn in one transaction: committed when fn resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>
  listen(channel: string, fn: Listener): void
  /** False while notifications from other processes could be missed: caches must not be trusted. */
  readonly notificationsLive: boolean
  close(): Promise<void>
}

/** The PostgreSQL channel behind one of ours (`notify`, `listen`). */
export const channelName = (channel: string) => `envelope_embed_${channel}`

/** This process's listeners, per channel. */
export class Hub {
  private readonly channels = new Map<string, Set<Listener>>()
  add(channel: string, fn: Listener): boolean {
    const isNew = !this.channels.has(channel)
    if (isNew) this.channels.set(channel, new Set())
    this.channels.get(channel)!.add(fn)
    return isNew
  }
  emit(channel: string, payload: string | null): void {
    for (const fn of this.channels.get(channel) ?? []) fn(payload)
  }
  resetAll(): void {
    for (const channel of this.channels.keys()) this.emit(channel, null)
  }
  names(): string[] {
    return [...this.channels.keys()]
  }
}
