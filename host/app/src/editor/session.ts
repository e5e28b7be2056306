import { ApiError, createApi, type Api } from '../page/api.js'
import { framingOrigin } from '../page/bridge.js'
import { isEditRoute, isLegacyRoute, type Launch } from '../page/boot.js'
import { draftFromEnvelope, emptyDraft, type Draft } from './draft/model.js'
import { language } from '../i18n/index.js'
import type { Attachment, EmbeddingSession, Envelope } from '../page/types.js'

/** What an open page works with: how it was launched, the API, the stored envelope and the draft. */
export interface Session {
  launch: Launch
  api: Api
  /** The stored envelope on edit routes. */
  envelope: Envelope | null
  draft: Draft
}

/** Verifies the token, then loads what the route edits (nothing on create routes). */
export async function loadSession(launch: Launch): Promise<Session> {
  if (!launch.token) throw new ApiError(401, 'INVALID_TOKEN', 'the page was opened without a token')
  const api = createApi(launch.token)
  // The service refuses a parent the team does not list (besides its frame-ancestors header).
  const parent = framingOrigin()
  const session = inlinedSession() ?? (await api.get<EmbeddingSession>(`/embedding/session${parent ? `?parentOrigin=${encodeURIComponent(parent)}` : ''}`))
  if (!isEditRoute(launch.route)) {
    if (session.scope) throw new ApiError(403, 'FORBIDDEN', 'a token scoped to one envelope cannot create new ones')
    return createSession(launch, api)
  }
  const envelope = await loadEnvelope(api, launch)
  const { data: attachments } = await api.get<{ data: Attachment[] }>(`/envelope/attachment?envelopeId=${encodeURIComponent(envelope.id)}`)
  return { launch, api, envelope, draft: draftFromEnvelope(envelope, attachments) }
}

/**
 * A create route's session at once, before the first render, when the service put the token's
 * answer in the page and it allows creating; otherwise null (loadSession asks, or reports why not).
 */
export function sessionInPage(launch: Launch): Session | null {
  if (!launch.token || isEditRoute(launch.route)) return null
  const session = inlinedSession(false)
  if (!session || session.scope) return null
  inlinedSession(true)
  return createSession(launch, createApi(launch.token))
}

function createSession(launch: Launch, api: Api): Session {
  const route = launch.route
  const type = route === 'template.create' ? 'TEMPLATE' : route === 'document.create' ? 'DOCUMENT' : (launch.options.type ?? 'DOCUMENT')
  return { launch, api, envelope: null, draft: emptyDraft(type, language()) }
}

/**
 * The session answer the service put in the page while serving it (only for a team that lists
 * no origins, so there is no parent to check); taken (removed) once used.
 */
function inlinedSession(take = true): EmbeddingSession | null {
  const el = document.getElementById('embed-session')
  if (!el) return null
  if (take) el.remove()
  try {
    return JSON.parse(el.textContent ?? '') as EmbeddingSession
  } catch {
    return null
  }
}

async function loadEnvelope(api: Api, launch: Launch): Promise<Envelope> {
  const notFound = new ApiError(404, 'NOT_FOUND', `no envelope ${launch.id}`)
  if (!isLegacyRoute(launch.route)) return api.get<Envelope>(`/envelope/${encodeURIComponent(launch.id ?? '')}`)
  const id = Number(launch.id)
  if (!Number.isSafeInteger(id) || id <= 0) throw notFound
  const kind = launch.route === 'document.edit' ? 'documentId' : 'templateId'
  const { data } = await api.post<{ data: Envelope[] }>('/envelope/get-many', { ids: { type: kind, ids: [id] } })
  const envelope = data[0]
  if (!envelope || envelope.type !== (kind === 'documentId' ? 'DOCUMENT' : 'TEMPLATE')) throw notFound
  // get-many may list envelopes without their fields; the envelope resource has them all.
  return envelope.fields ? envelope : api.get<Envelope>(`/envelope/${encodeURIComponent(envelope.id)}`)
}
