/**
 * Consent to sign electronically on the signing API (docs/consent.md): what the page shows before
 * the recipient's first action, recording their consent, and withdrawing it (a rejection).
 */
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import de from '../../app/src/i18n/de.js'
import en from '../../app/src/i18n/en.js'
import es from '../../app/src/i18n/es.js'
import fr from '../../app/src/i18n/fr.js'
import he from '../../app/src/i18n/he.js'
import it from '../../app/src/i18n/it.js'
import ja from '../../app/src/i18n/ja.js'
import ko from '../../app/src/i18n/ko.js'
import nl from '../../app/src/i18n/nl.js'
import pl from '../../app/src/i18n/pl.js'
import ptBR from '../../app/src/i18n/pt-BR.js'
import zh from '../../app/src/i18n/zh.js'
import { languageOf, type Language } from '../../shared/languages.js'
import { consentState, type ConsentInput } from '../domain/signing/consent.js'
import { DEFAULT_DOCUMENT_META } from '../domain/envelope/document-meta.js'
import { consentByToken, rejectByToken, type RecipientContext } from '../domain/signing/lifecycle.js'
import type { EnvelopeRow } from '../domain/common/rows.js'
import type { AppEnv, HostContext } from '../context.js'
import { clientOf, jsonBody } from './http.js'

/** The default disclosure (version 0) is the signing page's own, in the language it shows (every language's: a missing one is a type error). */
const DEFAULTS: Record<Language, string> = Object.fromEntries(
  Object.entries({ en, de, fr, es, it, nl, pl, 'pt-BR': ptBR, he, ja, ko, zh } satisfies Record<Language, { 'consent.disclosure': string }>).map(([code, words]) => [code, words['consent.disclosure']]),
) as Record<Language, string>

export const defaultDisclosureText = (language: unknown): string => DEFAULTS[languageOf(language)]

/** What the recipient agreed to: the disclosure version shown, and the language the page showed it in. */
export const ConsentBody = z.object({ version: z.int().min(0), language: z.string().max(35).optional() })
const WithdrawBody = z.object({ reason: z.string().trim().min(1).max(500).optional() })

/** The rejection reason of a withdrawal when the page gives none. */
export const WITHDRAWN_REASON = 'Consent to sign electronically withdrawn'

/** The consent the domain records, from what the page sent (its language or else the document's). */
export function consentInput(e: Pick<EnvelopeRow, 'document_meta'>, body: z.infer<typeof ConsentBody>): ConsentInput {
  const language = body.language ?? { ...DEFAULT_DOCUMENT_META, ...e.document_meta }.language
  return { version: body.version, defaultText: defaultDisclosureText(language) }
}

/** /consent of the recipient's token: `allowed` passes the access check their authentication asks for. */
export function consentRoutes(ctx: HostContext, allowed: (c: Context) => Promise<{ rc: RecipientContext; token: string }>) {
  const r = new Hono<AppEnv>()
  r.get('/', async (c) => {
    const { rc } = await allowed(c)
    return c.json(await consentState(ctx.db, rc.e, rc.r))
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
export async function directConsentState(ctx: HostContext, e: Pick<EnvelopeRow, 'id' | 'team_id'>) {
  return consentState(ctx.db, e, null)
}
