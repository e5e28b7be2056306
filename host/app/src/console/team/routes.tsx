import type { ConsoleRoute } from '../router.js'

/** The team settings' screens. */
export const teamRoutes: ConsoleRoute[] = []
