/**
 * A team's look on a message it sends (docs/branding.md): the one place that turns the team's
 * branding into what a message carries, so every e-mail sent on a team's behalf (signing requests
 * and the rest of job.ts, a recipient's one-time code, an invitation to the team) looks the same.
 * Read when the message leaves, so a change of branding reaches the messages still queued.
 * Account e-mails about a user's own account (sign-in link, verification, password) never call it.
 */
import type { Queryable } from '../db/index.js'
import { logoPath, mailBranding } from '../domain/team/branding.js'
import type { MailBrand } from './templates.js'
import type { InlineImage, MailMessage } from './transport.js'

export interface TeamLook {
  /** For the layout: the colour of buttons and links, and the logo shown by `cid:`. */
  brand: MailBrand | null
  /** For the message: From's display name, Reply-To and the logo it carries. */
  sender: Pick<MailMessage, 'senderName' | 'brandedSender' | 'replyTo' | 'inlineImages'>
}

/**
 * The look of a message from `teamName`'s team (`teamId`; none: the service's own look, From
 * still naming the team). `origin` is this host's public origin, where the local mailbox finds
 * the logo.
 */
export async function teamLook(db: Queryable, teamId: string | null | undefined, teamName: string | null | undefined, origin: string): Promise<TeamLook> {
  const branding = teamId ? await mailBranding(db, teamId) : null
  const logo: InlineImage | null = branding?.logo
    ? {
        cid: `logo-${branding.logo.sha256.slice(0, 16)}@branding`,
        filename: branding.logo.type === 'image/png' ? 'logo.png' : 'logo.jpg',
        contentType: branding.logo.type,
        content: branding.logo.bytes,
        url: origin.replace(/\/+$/, '') + logoPath(branding.logo.sha256),
      }
    : null
  const alt = branding?.senderName || teamName || ''
  const brand: MailBrand | null =
    branding && (branding.color || logo) ? { color: branding.color, logo: logo && { src: `cid:${logo.cid}`, alt } } : null
  return {
    brand,
    sender: {
      senderName: teamName,
      brandedSender: branding?.senderName,
      replyTo: branding?.replyTo,
      ...(logo ? { inlineImages: [logo] } : {}),
    },
  }
}
