import { randomBytes, randomInt } from 'node:crypto'

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789'

/** `length` characters of [a-z0-9] from the CSPRNG. */
export function randomId(length = 16): string {
  let out = ''
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)]
  return out
}

export const newId = {
  team: () => `team_${randomId()}`,
  apiToken: () => `token_${randomId()}`,
  envelope: () => `envelope_${randomId()}`,
  envelopeItem: () => `envelope_item_${randomId()}`,
  documentData: () => `document_data_${randomId()}`,
  attachment: () => `attachment_${randomId()}`,
  webhook: () => `webhook_${randomId()}`,
  webhookCall: () => `webhook_call_${randomId()}`,
  bulkSend: () => `bulk_send_${randomId()}`,
  user: () => `user_${randomId()}`,
  session: () => `session_${randomId()}`,
  invitation: () => `invitation_${randomId()}`,
  accountLink: () => `link_${randomId(24)}`,
  challenge: () => `challenge_${randomId(24)}`,
  /** The cookie of a signed-in browser. */
  sessionToken: () => randomBytes(32).toString('base64url'),
  /** Secret that lets one recipient act on one envelope. */
  recipientToken: () => randomBytes(24).toString('base64url'),
  /** Public secret of a template's direct link. */
  directLinkToken: () => randomBytes(24).toString('base64url'),
}

/** `document_N` / `template_N`: the legacy-style id, numbered per team and type. */
export function secondaryId(type: 'DOCUMENT' | 'TEMPLATE', n: number): string {
  return `${type === 'DOCUMENT' ? 'document' : 'template'}_${n}`
}
