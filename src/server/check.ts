/**
 * A few lines of runtime shape checks, so this entry has no dependency. Each schema is typed
 * against a hand-written interface (`obj<T>` wants a check for every key of T), so the compiler
 * keeps the interfaces and the checks in step. Objects are open: unknown keys pass through.
 */
import type { Issue } from './errors.js'

export interface Schema<T> {
  (value: unknown, path: string, issues: Issue[]): void
  /** Phantom: the type this schema accepts. */
  readonly __type?: T
}

const schema = <T>(test: (v: unknown) => boolean, expected: string): Schema<T> =>
  (v, path, issues) => {
    if (!test(v)) issues.push({ path, message: `expected ${expected}, got ${describe(v)}` })
  }

function describe(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  if (typeof v === 'string') return v.length > 40 ? 'string' : JSON.stringify(v)
  return typeof v
}

export const str: Schema<string> = schema((v) => typeof v === 'string', 'string')
export const num: Schema<number> = schema((v) => typeof v === 'number' && Number.isFinite(v), 'number')
export const int: Schema<number> = schema((v) => Number.isSafeInteger(v), 'integer')
export const bool: Schema<boolean> = schema((v) => typeof v === 'boolean', 'boolean')
export const isNull: Schema<null> = schema((v) => v === null, 'null')
export const any: Schema<unknown> = () => {}
export const record: Schema<Record<string, unknown>> = schema(isRecord, 'object')

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

export const literal = <const T extends string | boolean>(...values: T[]): Schema<T> =>
  schema((v) => values.includes(v as T), values.map((x) => JSON.stringify(x)).join(' | '))

export const nullable = <T>(s: Schema<T>): Schema<T | null> => (v, path, issues) => {
  if (v !== null) s(v, path, issues)
}

/** The key may be absent (or undefined); when present it must match. */
export const optional = <T>(s: Schema<T>): Schema<T | undefined> => (v, path, issues) => {
  if (v !== undefined) s(v, path, issues)
}

export const arr = <T>(s: Schema<T>): Schema<T[]> => (v, path, issues) => {
  if (!Array.isArray(v)) return void issues.push({ path, message: `expected array, got ${describe(v)}` })
  v.forEach((item, i) => s(item, join(path, String(i)), issues))
}

export const obj = <T>(shape: { [K in keyof T]-?: Schema<T[K]> }): Schema<T> => (v, path, issues) => {
  if (!isRecord(v)) return void issues.push({ path, message: `expected object, got ${describe(v)}` })
  for (const key of Object.keys(shape) as (keyof T & string)[]) shape[key](v[key], join(path, key), issues)
}

/** Both shapes at once (for a base object plus the keys a variant adds). */
export const both = <A, B>(a: Schema<A>, b: Schema<B>): Schema<A & B> => (v, path, issues) => {
  a(v, path, issues)
  if (isRecord(v)) b(v, path, issues)
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key)

/** The issues of `value` against `s`; empty when it matches. */
export function check<T>(s: Schema<T>, value: unknown, path = ''): Issue[] {
  const issues: Issue[] = []
  s(value, path, issues)
  return issues
}
