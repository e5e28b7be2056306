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

/** The weaker of two roles: a credential's ceiling against its maker's current role. */
export const weaker = (a: Role, b: Role): Role => (atLeast(a, b) ? b : a)

/**
 * SQL: whether a member of role `role` (an SQL expression) sees an envelope of visibility
 * `visibility` (an SQL expression): the visibility's rank is at most the role's, ranks taken from
 * the same lists as visibilitiesFor.
 */
export const roleReachesSql = (role: string, visibility: string): string =>
  `array_position(array[${VISIBILITIES.map((v) => `'${v}'`).join(', ')}]::text[], ${visibility}) <= array_position(array[${ROLES.map((r) => `'${r}'`).join(', ')}]::text[], ${role})`
