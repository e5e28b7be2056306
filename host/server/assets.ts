import { readFile } from 'node:fs/promises'
import path from 'node:path'

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
}

/** The copies the app's build writes beside a text asset (host/app/precompress.ts), best first. */
const ENCODINGS = [
  { coding: 'br', suffix: '.br' },
  { coding: 'gzip', suffix: '.gz' },
] as const
type Coding = (typeof ENCODINGS)[number]['coding']

/**
 * The coding to send for an `Accept-Encoding` header: the one with the highest weight among those
 * we have copies in (Brotli on a tie), or none (the file as it is). `*` stands for any coding the
 * header does not name; a weight of 0 refuses a coding; `x-gzip` is gzip.
 */
export function chooseEncoding(header: string | undefined): Coding | null {
  if (!header) return null
  const weights = new Map<string, number>()
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase())
    const q = params.find((p) => p.startsWith('q='))
    const weight = q === undefined ? 1 : Number(q.slice(2))
    if (name) weights.set(name, Number.isFinite(weight) ? weight : 0)
  }
  const weightOf = (coding: Coding) => weights.get(coding) ?? (coding === 'gzip' ? weights.get('x-gzip') : undefined) ?? weights.get('*') ?? 0
  let best: Coding | null = null
  for (const { coding } of ENCODINGS) if (weightOf(coding) > (best ? weightOf(best) : 0)) best = coding
  return best
}

/**
 * A file of the app's build under `assetsDir` (`rel` is the decoded rest of the address), or null
 * when it names none there. Sent compressed when the browser accepts a coding the build wrote a copy
 * in; every answer says that it varies by `Accept-Encoding`, so a cache keeps the two apart.
 */
export async function assetResponse(assetsDir: string, rel: string, acceptEncoding: string | undefined): Promise<Response | null> {
  const file = path.resolve(assetsDir, rel)
  if (!file.startsWith(assetsDir + path.sep)) return null
  const headers: Record<string, string> = {
    'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    // File names carry a content hash: cache for a year.
    'Cache-Control': 'public, max-age=31536000, immutable',
    'X-Content-Type-Options': 'nosniff',
    'Access-Control-Allow-Origin': '*',
    Vary: 'Accept-Encoding',
  }
  const coding = chooseEncoding(acceptEncoding)
  const copy = ENCODINGS.find((e) => e.coding === coding)
  if (copy) {
    const body = await readFile(file + copy.suffix).catch(() => null)
    if (body) return new Response(body, { headers: { ...headers, 'Content-Encoding': copy.coding } })
  }
  const body = await readFile(file).catch(() => null)
  return body && new Response(body, { headers })
}
