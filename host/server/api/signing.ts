/**
 * The API of the signing pages, mounted at /api/signing. The credential is the recipient's token,
 * sent as `Authorization: Bearer <token>` so that it never appears in a path or a log line.
 */
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { tokenFromHeader } from '../auth/principal.js'
import { ApiError } from '../errors.js'
import { envelopeItemPdf } from '../domain/item/items.js'
import { byToken, completeByToken, openByToken, rejectByToken } from '../domain/signing/lifecycle.js'
import { signingSession } from '../domain/signing/session.js'
import { byDirectToken, signDirectLink } from '../domain/template/direct-links.js'
import { normalizePictures } from '../domain/field/values.js'
import type { EnvelopeRow } from '../domain/common/rows.js'
import { clientOf, jsonBody, parse, storedPdfResponse } from './http.js'
import type { AppEnv, HostContext } from '../context.js'
import { stringParam } from './schemas.js'
import { issueGrant, recipientSubject } from '../domain/signing/proof-binding.js'
import type { AccessMethod } from '../domain/recipient/auth.js'
import { AccessProof, ActionProof, assertAccess, proveAction, proveDirect } from '../domain/signing/proofs.js'
import { directAuthRoutes, proofRequest, signingAuthRoutes } from './signing-auth.js'
import { ConsentBody, consentInput, consentRoutes, directConsentState } from './consent.js'

const Value = z.union([z.string().max(1_000_000), z.array(z.string().max(1000)).max(100)])
const CompleteBody = z.object({
  fields: z.array(z.object({ id: z.int().min(1), value: Value })).max(1000),
  nextSigner: z.object({ name: z.string().trim().min(1).max(255), email: z.email().max(320) }).optional(),
  /** What the recipient proves for this action, when their authentication asks for it. */
  auth: ActionProof.optional(),
})
const DirectCompleteBody = CompleteBody.extend({
  /** The access check of the link's recipient, proved for the visitor's address as they sign. */
  access: AccessProof.optional(),
  signer: z.object({ name: z.string().trim().min(1).max(255), email: z.email().max(320) }),
  roles: z.array(z.object({ id: z.int().min(1), name: z.string().trim().min(1).max(255), email: z.email().max(320) })).max(100).optional(),
  externalId: z.string().max(255).optional(),
  /** The visitor's consent to sign electronically: the disclosure version the page showed (docs/consent.md). */
  consent: ConsentBody.optional(),
})
const RejectBody = z.object({ reason: z.string().trim().min(1).max(500), auth: ActionProof.optional() })
const DownloadQuery = z.object({ version: z.enum(['signed', 'original']).optional() })

function tokenOf(c: Context): string {
  const token = tokenFromHeader(c.req.header('authorization'))
  if (!token || token.length > 200) throw new ApiError(401, 'INVALID_TOKEN', 'the recipient token is missing')
  return token
}

export function signingRoutes(ctx: HostContext) {
  const r = new Hono<AppEnv>()

  // Nothing of the document before the recipient passed the access check their authentication asks for.
  const allowed = async (c: Context) => {
    const rc = await byToken(ctx.db, tokenOf(c), false)
    return { rc, accessAuth: assertAccess(ctx, proofRequest(c), rc) }
  }
  r.route('/auth', signingAuthRoutes(ctx, (c) => byToken(ctx.db, tokenOf(c), false)))

  r.get('/session', async (c) => c.json(await signingSession(ctx.db, (await allowed(c)).rc)))
  r.route('/consent', consentRoutes(ctx, async (c) => ({ ...(await allowed(c)), token: tokenOf(c) })))

  r.post('/open', async (c) => {
    const token = tokenOf(c)
    const { accessAuth } = await allowed(c)
    await openByToken(ctx.db, token, clientOf(c), accessAuth)
    return c.json({ success: true })
  })

  const item = async (c: Context, e: EnvelopeRow, version: 'signed' | 'original') => {
    const id = stringParam(c.req.param('id'), 'envelope item')
    const { title, file } = await envelopeItemPdf(ctx.db, e.id, id, version)
    return storedPdfResponse(c, ctx, file, title)
  }
  r.get('/item/:id', async (c) => {
    const { e } = (await allowed(c)).rc
    return item(c, e, parse(DownloadQuery, c.req.query()).version ?? 'original')
  })

  r.post('/complete', async (c) => {
    const token = tokenOf(c)
    const { rc } = await allowed(c)
    const { auth, ...body } = await normalizePictures(await jsonBody(c, CompleteBody))
    const actionAuth = await proveAction(ctx, proofRequest(c), rc, auth)
    const result = await completeByToken(ctx.db, token, clientOf(c), body, ctx.clock.now(), actionAuth)
    return c.json(result)
  })

  // Declining needs the access check only: the action proof guards a signature or approval, and a
  // recipient who cannot give it (no password yet, no passkey at hand) must still be able to say no.
  // An `auth` sent along (older pages send one) is taken and ignored.
  r.post('/reject', async (c) => {
    const token = tokenOf(c)
    await allowed(c)
    const { reason } = await jsonBody(c, RejectBody)
    await rejectByToken(ctx.db, token, clientOf(c), reason)
    return c.json({ success: true })
  })

  // A template's direct link: the token is the link's; the template is what the visitor sees.
  r.get('/direct/session', async (c) => c.json(await signingSession(ctx.db, await byDirectToken(ctx.db, tokenOf(c)), true)))
  // Nothing to record: the document exists only once the visitor signs.
  r.post('/direct/open', async (c) => {
    await byDirectToken(ctx.db, tokenOf(c))
    return c.json({ success: true })
  })
  r.get('/direct/item/:id', async (c) => item(c, (await byDirectToken(ctx.db, tokenOf(c))).e, 'original'))
  r.route('/direct/auth', directAuthRoutes(ctx, (c) => byDirectToken(ctx.db, tokenOf(c))))
  r.get('/direct/consent', async (c) => c.json(await directConsentState(ctx, (await byDirectToken(ctx.db, tokenOf(c))).e, c)))
  r.post('/direct/complete', async (c) => {
    const token = tokenOf(c)
    const { access, auth, consent, ...body } = await normalizePictures(await jsonBody(c, DirectCompleteBody))
    const link = await byDirectToken(ctx.db, token)
    const proved = await proveDirect(ctx, proofRequest(c), link, body.signer.email, { access, auth })
    const given = consent && consentInput(link.e, consent)
    const result = await signDirectLink(ctx.db, token, clientOf(c), body, ctx.clock.now(), proved, given)
    // The document made carries the link's methods: the access check just passed holds for its own link too.
    const made = recipientSubject({ id: result.recipientId, email: body.signer.email.trim().toLowerCase(), token: result.token })
    const grant = proved.accessAuth.length ? issueGrant(ctx.linkKey, made, proved.accessAuth as AccessMethod[], ctx.clock.now()).grant : undefined
    return c.json({ ...result, ...(grant ? { grant } : {}) })
  })

  return r
}
