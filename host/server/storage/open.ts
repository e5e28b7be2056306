// Apart from file-store.ts, which the stores import for its types: only this module loads them.
import type { FileStore } from './file-store.js'

/**
 * STORAGE_URL: unset or `database` keeps files in the database; `s3://bucket[/prefix]` puts them
 * in an S3-compatible bucket (its options: docs/configuration.md; how it is used: docs/operations.md, "Storage").
 */
export async function openFileStore(url: string | undefined): Promise<FileStore | null> {
  if (!url || url === 'database') return null
  if (url.startsWith('s3://')) return (await import('./s3.js')).openS3Store(url)
  throw new Error(`STORAGE_URL must be "database" or an s3:// URL, got "${url.replace(/\/\/[^@/]*@/, '//***@')}"`)
}
