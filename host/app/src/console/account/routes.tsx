import type { ConsoleRoute } from '../router.js'

/** The account's screens (sign-up, links, the account page). */
export const accountRoutes: ConsoleRoute[] = []

/** The step after the password when the account has two-factor on (null until it exists). */
export const SecondFactorStep: ((props: { onDone: () => void }) => React.ReactNode) | null = null
