/**
 * A console team with the data a person's team has: members of each role, documents in every
 * status, a template with a fillable field and a direct link, an API token, a pending
 * invitation, a webhook for every event, and an account with two-factor on. Also the console's
 * declared routes, read from its route tables.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Secret, TOTP } from 'otpauth'
import { EVENT_NAMES } from '../../../src/protocol/events.js'
import { makeUser, signInAs } from '../../support/console-client.js'
import { until } from '../../host/support.js'
import { makePdf } from './pdf.js'
import { consentThroughApi, sendDocument, sig, text } from './sign.js'
import type { Stack } from './stack.js'

const CONSOLE_SRC = fileURLToPath(new URL('../../../host/app/src/console/', import.meta.url))

/** The patterns of every console route: each `pattern: '…'` of the route tables the shell gathers. */
export async function declaredPatterns(): Promise<string[]> {
  const files = (await readdir(CONSOLE_SRC, { recursive: true })).filter((f) => /\.tsx?$/.test(f) && !f.startsWith('i18n'))
  const patterns: string[] = []
  for (const f of files) {
    for (const m of (await readFile(join(CONSOLE_SRC, f), 'utf8')).matchAll(/\bpattern:\s*'([^']+)'/g)) patterns.push(m[1]!)
  }
  return patterns.sort()
}

export interface ConsoleTeam {
  teamId: string
  ids: Record<'draft' | 'pending' | 'completed' | 'rejected' | 'cancelled' | 'template', string>
  /** The pending invitation's link, from its e-mail. */
  invitationLink: string
  /** tess@example.com's code at a moment. */
  totpAt: (at: number) => string
}

const PNG_DOT = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='

/**
 * Fills the stack's team "E2E": ada (ADMIN), max (MANAGER), mia and tess (MEMBER, two-factor on),
 * all with TEST_PASSWORD; a webhook for every event to `webhookUrl`.
 */
export async function seedConsoleTeam(stack: Stack, webhookUrl: string): Promise<ConsoleTeam> {
  const teamId = (await stack.host.db.query<{ id: string }>(`select id from teams where name = 'E2E'`))[0]!.id
  await makeUser(stack.host.db, 'ada@example.com', { teamId, role: 'ADMIN' })
  await makeUser(stack.host.db, 'mia@example.com', { teamId, role: 'MEMBER' })
  await makeUser(stack.host.db, 'max@example.com', { teamId, role: 'MANAGER' })
  // Each document below leaves deliveries in the webhook's log.
  await stack.api('POST', '/webhook/create', { url: webhookUrl, events: [...EVENT_NAMES] })

  const signing = async (token: string, path: string, body?: unknown): Promise<any> => {
    const res = await fetch(`${stack.host.url}/api/signing${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    })
    if (!res.ok) throw new Error(`signing ${path}: ${res.status} ${await res.text()}`)
    return res.json()
  }
  const signAll = async (token: string) => {
    const session = await signing(token, '/session')
    await consentThroughApi(stack.host.url, token)
    await signing(token, '/complete', { fields: session.fields.map((f: { id: string }) => ({ id: f.id, value: `data:image/png;base64,${PNG_DOT}` })) })
  }
  // Sent to Grace (signer) and Alan (approver, after her).
  const sendToTwo = (title: string) =>
    sendDocument(stack, {
      title,
      recipients: [
        { email: 'grace@example.com', name: 'Grace Hopper', role: 'SIGNER', signingOrder: 1, fields: [sig(10, 70)] },
        { email: 'alan@example.com', name: 'Alan Turing', role: 'APPROVER', signingOrder: 2 },
      ],
    })
  // Created, not sent; a template's text field is one its user may fill in ahead.
  const draft = async (title: string, type: 'DOCUMENT' | 'TEMPLATE' = 'DOCUMENT') => {
    const fields = type === 'TEMPLATE' ? [sig(10, 70), text('Start date', 10, 20)] : [sig(10, 70)]
    const form = new FormData()
    form.append('payload', JSON.stringify({ type, title, recipients: [{ email: 'linus@example.com', name: 'Linus Torvalds', role: 'SIGNER', fields }] }))
    form.append('files', new Blob([new Uint8Array(await makePdf(title, 2))], { type: 'application/pdf' }), `${title}.pdf`)
    return (await stack.api<{ id: string }>('POST', '/envelope/create', form)).id
  }

  const pending = await sendToTwo('Lease 4B, second floor')
  const completed = await sendToTwo('Purchase agreement')
  await signAll(completed.recipient('grace@example.com').token)
  await signAll(completed.recipient('alan@example.com').token)
  const rejected = await sendToTwo('Supplier contract')
  await signing(rejected.recipient('grace@example.com').token, '/reject', { reason: 'The delivery dates are wrong.' })
  const cancelled = await sendToTwo('Old office lease')
  await stack.api('POST', '/envelope/cancel', { envelopeId: cancelled.id })
  const template = await draft('Non-disclosure agreement', 'TEMPLATE')
  const { secondaryId } = await stack.api<{ secondaryId: string }>('GET', `/envelope/${template}`)
  await stack.api('POST', '/template/direct/create', { templateId: Number(secondaryId.split('_').pop()) })
  const ids = { draft: await draft('Offer letter'), pending: pending.id, completed: completed.id, rejected: rejected.id, cancelled: cancelled.id, template }

  // Two-factor on, for the step after the password.
  await makeUser(stack.host.db, 'tess@example.com', { teamId, role: 'MEMBER' })
  const tess = await signInAs(stack.host.url, 'tess@example.com')
  const { secret } = (await (await tess.console('/account/totp/setup', { body: {} })).json()) as { secret: string }
  const totpAt = (at: number) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: at })
  const confirmed = await tess.console('/account/totp/confirm', { body: { code: totpAt(Date.now()) } })
  if (!confirmed.ok) throw new Error(`two-factor not turned on: ${confirmed.status}`)

  // An API token and a pending invitation, made in the console by its admin.
  const ada = await signInAs(stack.host.url, 'ada@example.com')
  await ada.console('/teams/switch', { body: { teamId } })
  for (const [path, body] of [['/team/tokens', { name: 'Billing server', expires: '3m' }], ['/team/invitations', { email: 'noah@example.com', role: 'MEMBER' }]] as const) {
    const res = await ada.console(path, { body })
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`)
  }
  let invitationLink = ''
  await until(async () => {
    await stack.host.queue.drain()
    const [mail] = await stack.host.db.query<{ text: string }>(`select text from mails where to_address = 'noah@example.com'`)
    invitationLink = /http\S+\/console\/\S+#[\w.-]+/.exec(mail?.text ?? '')?.[0] ?? ''
    return invitationLink !== ''
  })
  return { teamId, ids, invitationLink, totpAt }
}
