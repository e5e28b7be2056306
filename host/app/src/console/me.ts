import { createContext, useContext } from 'react'

export type Role = 'ADMIN' | 'MANAGER' | 'MEMBER'

export interface Membership {
  teamId: string
  teamName: string
  plan: string
  role: Role
}

/** GET /api/console/me, signed in. */
export interface Me {
  user: { id: string; email: string; name: string; emailVerified: boolean; hasPassword: boolean; totpEnabled: boolean; createdAt: string }
  teams: Membership[]
  team: Membership | null
  sessionId: string
  csrfToken: string
}

export interface MeContext {
  me: Me
  /** Reads /me again (after a team switch, a name change...). */
  reload: () => Promise<void>
}

export const MeCtx = createContext<MeContext | null>(null)

export function useMe(): MeContext {
  const ctx = useContext(MeCtx)
  if (!ctx) throw new Error('useMe outside the signed-in console')
  return ctx
}

const ORDER: Role[] = ['MEMBER', 'MANAGER', 'ADMIN']
export const atLeast = (role: Role | undefined, needed: Role) => role !== undefined && ORDER.indexOf(role) >= ORDER.indexOf(needed)
