import type { ConsoleRoute } from '../router.js'
import { AccountPage } from './AccountPage.js'
import { EmailRequest } from './EmailRequest.js'
import { LinkLanding } from './LinkLanding.js'
import { SecondFactor } from './SecondFactor.js'
import { SignUp } from './SignUp.js'
import './account.css'

/** The account's screens (sign-up, links, the account page). */
export const accountRoutes: ConsoleRoute[] = [
  { pattern: '/console/sign-up', open: true, render: () => <SignUp /> },
  { pattern: '/console/reset', open: true, render: () => <EmailRequest purpose="reset" /> },
  { pattern: '/console/sign-in/link', open: true, render: () => <EmailRequest purpose="signin" /> },
  // E-mailed links; 'invite' is handed on to /console/invitation (the team screens).
  { pattern: '/console/link/:purpose', open: true, render: (p) => <LinkLanding key={p.purpose} purpose={p.purpose!} /> },
  { pattern: '/console/account', render: () => <AccountPage /> },
]

/** The step after the password when the account has two-factor on. */
export const SecondFactorStep: ((props: { onDone: () => void }) => React.ReactNode) | null = ({ onDone }) => <SecondFactor onDone={onDone} />
