import { Hono } from 'hono'
import type { AppEnv, HostContext } from './http.js'

export function recipientRoutes(_ctx: HostContext) {
  const r = new Hono<AppEnv>()
  return r
}
