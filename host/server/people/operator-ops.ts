/**
 * The operator's commands, wired once on a database: the CLI runs them there, and a running server
 * offers the same ones to it on its admin endpoints (api/admin.ts). Each opens its own transaction.
 */
import type { KeyObject } from 'node:crypto'
import { createApiToken, listApiTokens, revokeApiToken, type ApiTokenInfo, type TokenExpiry } from '../auth/api-tokens.js'
import type { HostConfig } from '../config.js'
import type { Db } from '../db/index.js'
import { archivesDue, type ArchiveDue } from '../domain/evidence/archive-renewal.js'
import { checkAuditChains, type AuditChainCheck } from '../domain/evidence/audit-chain.js'
import type { Plan } from '../domain/team/plans.js'
import { purgeDue, retentionDue, type DueEnvelope, type PurgedEnvelope } from '../domain/retention/retention.js'
import { createTeam } from '../domain/team/teams.js'
import type { EventName } from '../events/index.js'
import { jobSummary, retryFailed } from '../jobs/job-table.js'
import { webhookOps, type Webhook, type WebhookCall, type WebhookWithKey } from '../webhooks/store.js'
import { createOperatorUser, listUsers } from './operator.js'
import type { Role } from './roles.js'
import { operatorSignInLink } from './sign-in-link.js'

export type JobCount = Awaited<ReturnType<typeof jobSummary>>[number]
export type OperatorUser = Awaited<ReturnType<typeof listUsers>>[number]

export interface OperatorOps {
  createTeam(o: { name: string; plan: Plan }): Promise<{ id: string }>
  createToken(o: { name: string; teamId?: string | undefined; expires?: TokenExpiry | undefined }): Promise<{ id: string; token: string; teamId: string; expiresAt: string | null }>
  listTokens(): Promise<ApiTokenInfo[]>
  revokeToken(id: string): Promise<void>
  createWebhook(o: { teamId?: string | undefined; url: string; events: EventName[]; secret?: string | undefined }): Promise<WebhookWithKey>
  listWebhooks(teamId?: string): Promise<Webhook[]>
  webhookCalls(id: string, teamId?: string): Promise<WebhookCall[]>
  createUser(o: { email: string; name?: string | undefined; teamId?: string | undefined; role?: Role | undefined }): Promise<{ userId: string; created: boolean }>
  listUsers(): Promise<OperatorUser[]>
  /** A fresh sign-in link for the account, to be opened at `origin`. */
  signInLink(email: string, origin: string): Promise<{ url: string; email: string; expiresAt: string }>
  listJobs(): Promise<JobCount[]>
  retryJobs(kind?: string): Promise<number>
  checkAudit(envelopeId?: string): Promise<AuditChainCheck[]>
  archiveDue(): Promise<ArchiveDue[]>
  /** Due by now, or within `days` more days. */
  retentionDue(o: { teamId?: string | undefined; days: number }): Promise<DueEnvelope[]>
  retentionRun(teamId?: string): Promise<PurgedEnvelope[]>
}

const DAY_MS = 24 * 3600_000

export function operatorOps(
  db: Db,
  o: { config: Pick<HostConfig, 'webhookAllowPrivateUrls' | 'archive'>; now: () => Date; linkKey: () => KeyObject | Promise<KeyObject> },
): OperatorOps {
  return {
    createTeam: (team) => createTeam(db, team),
    createToken: (token) => createApiToken(db, token),
    listTokens: () => listApiTokens(db),
    revokeToken: (id) => revokeApiToken(db, id),
    ...webhookOps(db, o.config.webhookAllowPrivateUrls),
    createUser: (user) => createOperatorUser(db, user),
    listUsers: () => listUsers(db),
    signInLink: async (email, origin) => operatorSignInLink(db, { email, origin, linkKey: await o.linkKey() }),
    listJobs: () => jobSummary(db),
    retryJobs: (kind) => retryFailed(db, kind),
    checkAudit: (envelopeId) => checkAuditChains(db, envelopeId),
    archiveDue: () => archivesDue(db, o.now(), o.config.archive),
    retentionDue: (due) => retentionDue(db, { before: new Date(o.now().getTime() + due.days * DAY_MS), teamId: due.teamId }),
    retentionRun: (teamId) => purgeDue(db, o.now(), teamId),
  }
}
