/**
 * Where the bytes of stored files live. `document_data` rows always name a file by its SHA-256;
 * with the database store (the default) the row holds the bytes too, with an object store the row
 * holds `bytes = null` and the object under the hash holds them. Objects are written before the
 * row that names them commits, never changed, and swept some time after no row names them.
 */
import { createHash } from 'node:crypto'

export interface StoredObject {
  sha256: string
  modified: Date
}

export interface FileStore {
  /** For logs and readiness: `s3://bucket/prefix`, no credentials. */
  readonly label: string
  /** Writes `bytes` under their hash (again, when already there: the sweep goes by the write time). */
  put(sha256: string, bytes: Uint8Array): Promise<void>
  /** The bytes under `sha256`, refused when they do not hash to it. */
  get(sha256: string): Promise<Uint8Array>
  /** The bytes as they arrive; a file that does not hash to `sha256` errors the stream at its end. */
  stream(sha256: string): Promise<ReadableStream<Uint8Array>>
  /** A URL that serves the bytes as a download for `seconds`. */
  presignedUrl(sha256: string, o: { filename: string; seconds: number }): Promise<string>
  /** Every stored object, page by page. */
  list(): AsyncIterable<StoredObject[]>
  /** When the object was last written, or null when there is none. */
  modified(sha256: string): Promise<Date | null>
  delete(sha256s: string[]): Promise<void>
  /** Throws when the store cannot be reached (readiness). */
  check(): Promise<void>
  close(): void
}

/** A stream that passes bytes through and errors at its end when they do not hash to `sha256`. */
export function checkedStream(source: ReadableStream<Uint8Array>, sha256: string): ReadableStream<Uint8Array> {
  const hash = createHash('sha256')
  return source.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        hash.update(chunk)
        controller.enqueue(chunk)
      },
      flush(controller) {
        if (hash.digest('hex') !== sha256) controller.error(new Error(`stored file ${sha256} does not match its hash`))
      },
    }),
  )
}
