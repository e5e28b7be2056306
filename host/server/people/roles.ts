/** A member's role in a team, weakest first. */
export const ROLES = ['MEMBER', 'MANAGER', 'ADMIN'] as const
export type Role = (typeof ROLES)[number]

export const isRole = (v: unknown): v is Role => ROLES.includes(v as Role)

/** Whether `role` is `needed` or stronger. */
export const atLeast = (role: Role, needed: Role): boolean => ROLES.indexOf(role) >= ROLES.indexOf(needed)

/** An envelope's visibility: who in the team sees it in the console (its creator always does). */
export const VISIBILITIES = ['EVERYONE', 'MANAGER_AND_ABOVE', 'ADMIN'] as const
export type Visibility = (typeof VISIBILITIES)[number]

const NEEDS: Record<Visibility, Role> = { EVERYONE: 'MEMBER', MANAGER_AND_ABOVE: 'MANAGER', ADMIN: 'ADMIN' }

/** The visibilities a member of `role` sees. */
export const visibilitiesFor = (role: Role): Visibility[] => VISIBILITIES.filter((v) => atLeast(role, NEEDS[v]))
