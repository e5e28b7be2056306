import { Hono } from 'hono'
import type { AppEnv, HostContext } from './http.js'

export function attachmentRoutes(_ctx: HostContext) {
  const r = new Hono<AppEnv>()
  return r
}
