import { createContext, useContext } from 'react'

import type { Me, Role } from '../../../shared/console-contract.js'

export type { Me, Membership, Role } from '../../../shared/console-contract.js'

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
