import { Hono } from 'hono'
import type { AppEnv, HostContext } from './http.js'

export function itemRoutes(_ctx: HostContext) {
  const r = new Hono<AppEnv>()
  return r
}
