import type { ConsoleRoute } from '../router.js'

/** The documents' and templates' screens. */
export const documentRoutes: ConsoleRoute[] = []
