/**
 * Consent to sign electronically on the signing API (docs/consent.md): what the page shows before
 * the recipient's first action, recording their consent, and withdrawing it (a rejection).
 */
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { defaultDisclosure } from '../consent/disclosure-text.js'
import { consentState, type ConsentInput } from '../domain/signing/consent.js'
import { DEFAULT_DOCUMENT_META } from '../domain/envelope/document-meta.js'
import { consentByToken, rejectByToken, type RecipientContext } from '../domain/signing/lifecycle.js'
import type { EnvelopeRow } from '../domain/common/rows.js'
import type { AppEnv, HostContext } from '../context.js'
import { clientOf, jsonBody } from './http.js'

/** The default disclosure's current words in a language (host/server/consent/disclosure-text.ts). */
export const defaultDisclosureText = (language: unknown): string => defaultDisclosure(language).text

/**
 * What the recipient agreed to: the disclosure version shown, the language the page showed it in,
 * and (optionally) the SHA-256 of the text shown, refused when it is not the text recorded.
 */
export const ConsentBody = z.object({ version: z.int().min(0), language: z.string().max(35).optional(), sha256: z.string().regex(/^[0-9a-f]{64}$/).optional() })
const WithdrawBody = z.object({ reason: z.string().trim().min(1).max(500).optional() })

/** The rejection reason of a withdrawal when the page gives none. */
export const WITHDRAWN_REASON = 'Consent to sign electronically withdrawn'

/** The language the default disclosure is in: the page's, else the document's. */
const languageFor = (e: Pick<EnvelopeRow, 'document_meta'>, language: string | undefined) => language ?? { ...DEFAULT_DOCUMENT_META, ...e.document_meta }.language

/** The consent the domain records, from what the page sent (its language or else the document's). */
export function consentInput(e: Pick<EnvelopeRow, 'document_meta'>, body: z.infer<typeof ConsentBody>): ConsentInput {
  return { version: body.version, defaultText: defaultDisclosureText(languageFor(e, body.language)), ...(body.sha256 ? { shownHash: body.sha256 } : {}) }
}

/**
 * What a signing page shows before asking: the consent state, and when the team has no text of its
 * own, the default disclosure in the language asked for (`?language=`, else the document's), with
 * its edition and hash. The page shows these words: they are the ones whose hash is recorded.
 */
async function stateWithText(ctx: HostContext, e: Pick<EnvelopeRow, 'id' | 'team_id' | 'document_meta'>, r: RecipientContext['r'] | null, c: Context) {
  const state = await consentState(ctx.db, e, r)
  if (state.disclosure.text !== null) return state
  // Any tag: one not spoken reads in English (languageOf).
  const asked = c.req.query('language')?.slice(0, 35) || undefined
  return { ...state, disclosure: { ...state.disclosure, default: defaultDisclosure(languageFor(e, asked)) } }
}

/** /consent of the recipient's token: `allowed` passes the access check their authentication asks for. */
export function consentRoutes(ctx: HostContext, allowed: (c: Context) => Promise<{ rc: RecipientContext; token: string }>) {
  const r = new Hono<AppEnv>()
  r.get('/', async (c) => {
    const { rc } = await allowed(c)
    return c.json(await stateWithText(ctx, rc.e, rc.r, c))
  })
  r.post('/', async (c) => {
    const { rc, token } = await allowed(c)
    const input = consentInput(rc.e, await jsonBody(c, ConsentBody))
    const given = await consentByToken(ctx.db, token, clientOf(c), input)
    return c.json({ given: true, consent: given })
  })
  // Withdrawing consent declines the document: a rejection that says so.
  r.post('/withdraw', async (c) => {
    const { token } = await allowed(c)
    const { reason } = await jsonBody(c, WithdrawBody)
    const text = reason ?? WITHDRAWN_REASON
    await rejectByToken(ctx.db, token, clientOf(c), text, [], { consentWithdrawn: true })
    return c.json({ success: true, reason: text })
  })
  return r
}

/** A direct link's visitor: the disclosure to show; their consent is recorded with the document they sign. */
export async function directConsentState(ctx: HostContext, e: Pick<EnvelopeRow, 'id' | 'team_id' | 'document_meta'>, c: Context) {
  return stateWithText(ctx, e, null, c)
}
