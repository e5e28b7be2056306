/**
 * A team's logo as the signing pages and the local mailbox load it: `/branding/logo/{sha256}`,
 * no credential (a logo is shown to every recipient). The address names the bytes, so an answer
 * is kept for good; the type is the one the bytes were checked to be, and nosniff keeps it so.
 */
import { Hono } from 'hono'
import type { HostContext } from '../context.js'
import { logoFile } from '../domain/team/branding.js'
import { ApiError } from '../errors.js'

export function brandingLogoRoutes(ctx: HostContext) {
  const r = new Hono()
  r.get('/branding/logo/:sha256', async (c) => {
    const logo = await logoFile(ctx.db, c.req.param('sha256'))
    if (!logo) throw new ApiError(404, 'NOT_FOUND', 'no logo at this address')
    return c.body(logo.bytes as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': logo.type,
      'Content-Length': String(logo.bytes.byteLength),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'public, max-age=31536000, immutable',
      // Opened on its own, the image is all there is: no script, no plugin, no form.
      'Content-Security-Policy': "default-src 'none'; img-src 'self'; sandbox",
    })
  })
  return r
}
