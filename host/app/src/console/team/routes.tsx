import type { ConsoleRoute } from '../router.js'
import { Activity } from './Activity.js'
import { Branding } from './Branding.js'
import { General } from './General.js'
import { Invitation } from './Invitation.js'
import { Members } from './Members.js'
import { Tokens } from './Tokens.js'
import { Webhooks } from './Webhooks.js'
import './team.css'

/** The team settings' screens, and accepting an invitation. */
export const teamRoutes: ConsoleRoute[] = [
  { pattern: '/console/invitation', open: true, render: () => <Invitation /> },
  { pattern: '/console/settings', render: () => <General /> },
  { pattern: '/console/settings/members', render: () => <Members /> },
  { pattern: '/console/settings/tokens', render: () => <Tokens /> },
  { pattern: '/console/settings/webhooks', render: () => <Webhooks /> },
  { pattern: '/console/settings/activity', render: () => <Activity /> },
  { pattern: '/console/settings/branding', render: () => <Branding /> },
]
