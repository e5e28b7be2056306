/**
 * The console's API (`/api/console`), typed once: each route's request body and answer, by method
 * and path (`:name` marks a path parameter). The server's handlers check what they answer against
 * it (`satisfies Answer<…>`); the console's pages call by path and read the answer's type from it.
 * Dates travel as ISO 8601 strings.
 */
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser'
import type { PresignTokenResponse } from '../../src/protocol/presign.js'
import type { EnvelopeSummary, WebhookCall } from '../../src/protocol/api.js'
import type { Language } from './languages.js'

export type Role = 'ADMIN' | 'MANAGER' | 'MEMBER'
export type TokenExpiry = '7d' | '1m' | '3m' | '6m' | '12m' | 'never'

export interface Membership {
  teamId: string
  teamName: string
  plan: string
  role: Role
}

export interface ConsoleUser {
  id: string
  number: number
  email: string
  name: string
  emailVerified: boolean
  hasPassword: boolean
  totpEnabled: boolean
  createdAt: string
}

/** Signed in: what the console draws itself with, and the anti-forgery token it sends back. */
export interface Me {
  user: ConsoleUser
  teams: Membership[]
  /** The team the session is in; null before the first one. */
  team: Membership | null
  sessionId: string
  csrfToken: string
}

/** One delivery in the console's log: the API's call, with what a person reads first. */
export interface LoggedCall extends WebhookCall {
  /** The envelope the event was about (from the payload sent); null for a test event without one. */
  document: { id: string; title: string; type: 'DOCUMENT' | 'TEMPLATE' } | null
  /** The headers the call carried; `value` null where hidden (the secret, the signatures). */
  requestHeaders: { name: string; value: string | null }[]
  /** The start of the answer's body (or of the error). */
  responseExcerpt: string
}

/** No session (none, expired or ended): what the console's signed-out pages get, as a plain answer. */
export interface SignedOut {
  signedIn: false
}

/** Half signed in: a second factor is still owed. */
export interface SecondFactorDue {
  secondFactorDue: true
  user: { email: string }
  csrfToken: string
}

export interface AccountSession {
  id: string
  current: boolean
  createdAt: string
  lastSeenAt: string
  ip: string
  client: string | null
}

export interface Passkey {
  id: string
  name: string
  createdAt: string
  lastUsedAt: string | null
}

export interface Account {
  user: ConsoleUser
  sessions: AccountSession[]
  totp: { enabled: boolean; recoveryCodesLeft: number }
  passkeys: Passkey[]
}

export interface Member {
  userId: string
  email: string
  name: string
  role: Role
  joinedAt: string
}

export interface Invitation {
  id: string
  email: string
  role: Role
  createdAt: string
  expiresAt: string
  invitedBy: string | null
}

/** What accepting an invitation's link would do, without using it. */
export interface InvitationPeek {
  teamName: string
  email: string
  role: Role
  accountExists: boolean
}

/** An API token as the team's settings list it: never its value. */
export interface TeamToken {
  id: string
  name: string
  createdAt: string
  /** The e-mail address of the member who made it. */
  createdBy: string | null
  expiresAt: string | null
  expired: boolean
  lastUsedAt: string | null
}

export interface TeamUsage {
  name: string
  plan: string
  month: string
  documents: number
  /** Null: no limit. */
  documentLimit: number | null
  embedding: boolean
}

export interface ActivityEntry {
  id: number
  action: string
  target: string | null
  details: Record<string, unknown>
  createdAt: string
  by: { userId: string; email: string; name: string } | null
}

/** An entry of the activity log in words, as the console shows it. */
export interface ActivityWords {
  /** Who did it: a member, an API token with no member behind it (by name), or the operator. */
  actor: { kind: 'member'; name: string; email: string } | { kind: 'token'; name: string } | { kind: 'operator' }
  /** What it was done to, in words (a person, a token's name, a URL); null for the team itself. */
  subject: string | null
  /** Each field that changed, old → new (null: none before, or not shown). */
  changes: { field: string; from: string | null; to: string | null }[]
}

export interface ActivityPage {
  data: (ActivityEntry & ActivityWords)[]
  count: number
  currentPage: number
  perPage: number
  totalPages: number
}

/** A team's branding and document defaults (docs/branding.md); null: the service's own. */
export interface TeamBranding {
  logo: { url: string; type: 'image/png' | 'image/jpeg'; width: number; height: number; bytes: number } | null
  brandColor: string | null
  senderName: string | null
  replyTo: string | null
  emailSubject: string | null
  emailMessage: string | null
  timezone: string | null
  dateFormat: string | null
  language: string | null
  defaultAccessAuth: ('ACCOUNT' | 'TWO_FACTOR_AUTH')[]
  defaultActionAuth: ('ACCOUNT' | 'PASSKEY' | 'TWO_FACTOR_AUTH' | 'PASSWORD')[]
  updatedAt: string | null
}
/** A change of the branding: a key left out stays, null (or empty text) clears it. */
export type BrandingChange = Partial<Omit<TeamBranding, 'logo' | 'updatedAt'>>

type NoBody = Record<string, never>
/** Where a sign-in stands: a second factor may still be owed. */
type SignedIn = { secondFactorDue: boolean }
/** Every request about an address answers this, whether or not it has an account. */
type Sent = { sent: boolean }
/** A page of the documents list, its total, and how many of each status the other filters leave. */
export interface DocumentList {
  data: EnvelopeSummary[]
  count: number
  page: number
  perPage: number
  totalPages: number
  statusCounts: Record<'DRAFT' | 'PENDING' | 'COMPLETED' | 'REJECTED' | 'CANCELLED', number>
}

/** Who made an envelope, for its page: a member, or null (a team API token, a link); `mine` when it is the caller. */
export interface EnvelopeSender {
  createdBy: { userId: string; name: string; email: string } | null
  mine: boolean
}

/**
 * What sending a draft will e-mail, for the review before sending: each signing request as its
 * recipient will see it, rendered by the mail's own template with the subject and message given.
 */
export interface SendPreview {
  /** Signing requests go out by e-mail at all (false: distributionMethod NONE, or requests switched off). */
  mailed: boolean
  /** From as the recipient's mail client shows it ("Acme via Envelope" <no-reply@…>). */
  from: string
  /** The team's Reply-To, when its branding sets one. */
  replyTo: string | null
  /** One per recipient who acts (CC recipients get no request): the subject and the text of the message. */
  mails: { recipientId: number; to: string; subject: string; text: string }[]
}

type Challenge<Options> = { challengeId: string; options: Options }

/** Every route: its body (none for GET) and its answer. */
export interface ConsoleRoutes {
  // the session
  'GET /me': { answer: Me | SecondFactorDue }
  /** A webhook's deliveries with their document, request headers (secrets hidden) and answer's start. */
  'GET /webhooks/:id/calls': { answer: { data: LoggedCall[]; count: number; currentPage: number; perPage: number; totalPages: number } }
  /** Like /me, but signed out is an answer (200) rather than a 401: the console's first question. */
  'GET /session': { answer: Me | SecondFactorDue | SignedOut }
  'POST /auth/sign-in': { body: { email: string; password: string }; answer: SignedIn }
  'POST /auth/sign-out': { body: NoBody; answer: { signedOut: boolean } }
  'POST /teams/switch': { body: { teamId: string }; answer: { teamId: string } }

  // getting into an account
  'POST /auth/sign-up': { body: { email: string; name?: string; password: string; language?: Language }; answer: Sent }
  'POST /auth/verify': { body: { link: string; password: string }; answer: SignedIn }
  'POST /auth/reset': { body: { email: string; language?: Language }; answer: Sent }
  'POST /auth/reset/complete': { body: { link: string; password: string }; answer: SignedIn & { passkeys: Passkey[] } }
  'POST /auth/link': { body: { email: string; language?: Language }; answer: Sent }
  'POST /auth/link/complete': { body: { link: string }; answer: SignedIn }
  'POST /auth/passkey/options': { body: NoBody; answer: Challenge<PublicKeyCredentialRequestOptionsJSON> }
  'POST /auth/passkey/verify': { body: { challengeId: string; response: AuthenticationResponseJSON }; answer: SignedIn }
  'POST /auth/second-factor/totp': { body: { code: string }; answer: SignedIn }
  'POST /auth/second-factor/recovery': { body: { code: string }; answer: SignedIn }
  'POST /auth/second-factor/passkey/options': { body: NoBody; answer: Challenge<PublicKeyCredentialRequestOptionsJSON> }
  'POST /auth/second-factor/passkey/verify': { body: { challengeId: string; response: AuthenticationResponseJSON }; answer: SignedIn }

  // the account page
  'POST /account/confirm': { body: { password: string } | { code: string }; answer: { confirmed: boolean } }
  'GET /account': { answer: Account }
  'POST /account/name': { body: { name: string }; answer: { name: string } }
  'POST /account/password': { body: { current: string; password: string }; answer: { changed: boolean } }
  'POST /account/sessions/:id/revoke': { body: NoBody; answer: { revoked: boolean } }
  'POST /account/sessions/revoke-others': { body: NoBody; answer: { revoked: boolean } }
  'POST /account/totp/setup': { body: NoBody; answer: { secret: string; uri: string } }
  'POST /account/totp/confirm': { body: { code: string }; answer: { recoveryCodes: string[] } }
  'POST /account/totp/disable': { body: { code: string } | { password: string }; answer: { enabled: boolean } }
  'POST /account/recovery-codes': { body: NoBody; answer: { recoveryCodes: string[] } }
  'POST /account/passkeys/options': { body: NoBody; answer: Challenge<PublicKeyCredentialCreationOptionsJSON> }
  'POST /account/passkeys': { body: { challengeId: string; response: RegistrationResponseJSON; name?: string }; answer: Passkey }
  'PATCH /account/passkeys/:id': { body: { name: string }; answer: Passkey }
  'DELETE /account/passkeys/:id': { answer: { deleted: boolean } }

  // the team
  'GET /team': { answer: TeamUsage }
  'POST /team/rename': { body: { name: string }; answer: TeamUsage }
  'POST /teams': { body: { name: string }; answer: { teamId: string } }
  'GET /team/members': { answer: { data: Member[] } }
  'POST /team/members/role': { body: { userId: string; role: Role }; answer: { data: Member[] } }
  'POST /team/members/remove': { body: { userId: string }; answer: { success: boolean } }
  'GET /team/invitations': { answer: { data: Invitation[] } }
  'POST /team/invitations': { body: { email: string; role: Role; language?: Language }; answer: Invitation }
  'POST /team/invitations/resend': { body: { id: string; language?: Language }; answer: Invitation }
  'POST /team/invitations/revoke': { body: { id: string }; answer: { success: boolean } }
  'POST /invitations/peek': { body: { link: string }; answer: InvitationPeek }
  'POST /invitations/accept': { body: { link: string; name?: string; password?: string }; answer: { teamId: string; created: boolean } }
  'GET /team/tokens': { answer: { data: TeamToken[] } }
  /** The token's value is in this answer only. */
  'POST /team/tokens': { body: { name: string; expires: TokenExpiry }; answer: { id: string; token: string; teamId: string; expiresAt: string | null } }
  'POST /team/tokens/revoke': { body: { id: string }; answer: { success: boolean } }
  /** Query: `page` and `perPage` (at most 100). */
  'GET /team/activity': { answer: ActivityPage }
  'GET /team/branding': { answer: TeamBranding }
  'POST /team/branding': { body: BrandingChange; answer: TeamBranding }
  /** `image`: a base64 `data:` URL of a PNG or JPEG (256 KiB at most). */
  'POST /team/branding/logo': { body: { image: string }; answer: TeamBranding }
  'POST /team/branding/logo/remove': { body: NoBody; answer: TeamBranding }

  // documents
  /**
   * A page of the team's documents or templates the member sees. Query: `type`, `query`, `status`,
   * `period` (7d|30d|90d|12m), `sender` (a member's user id), `owner` (me|api), `sort`
   * (created|title|updated), `dir` (asc|desc), `page`, `perPage` (at most 100).
   */
  'GET /documents': { answer: DocumentList }
  /** Who created one envelope the member sees (its page says what their role lets them do with it). */
  'GET /documents/:id/sender': { answer: EnvelopeSender }
  /** A token to open one envelope in the editor. */
  'POST /documents/editor': { body: { envelopeId: string }; answer: PresignTokenResponse }
  /**
   * The signing requests sending this draft will e-mail, with `subject` and `message` in place of
   * the stored ones (null: the default text); sends nothing. 400 as sending would be for an
   * envelope that cannot be sent, 404 for one the member does not see.
   */
  'POST /documents/:id/send-preview': { body: { subject?: string | null; message?: string | null }; answer: SendPreview }
}

export type ConsoleRoute = keyof ConsoleRoutes
export type Answer<R extends ConsoleRoute> = ConsoleRoutes[R]['answer']
export type Body<R extends ConsoleRoute> = ConsoleRoutes[R] extends { body: infer B } ? B : never
