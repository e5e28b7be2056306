import { useCallback, useEffect, useState } from 'react'
import type { EmbedMessage } from '../../../../src/protocol/index.js'
import { ApiError, createApi, type Api } from '../api.js'
import { isEditRoute, isLegacyRoute, type Launch } from '../boot.js'
import { post } from '../bridge.js'
import { draftFromEnvelope, emptyDraft, type Draft } from '../draft/model.js'
import { language, t } from '../i18n/index.js'
import { legacyId, type Attachment, type EmbeddingSession, type Envelope } from '../types.js'
import { Done } from './Done.js'
import { Editor } from './Editor.js'
import { ErrorScreen } from './ErrorScreen.js'

export interface Session {
  launch: Launch
  api: Api
  /** The stored envelope on edit routes. */
  envelope: Envelope | null
  draft: Draft
}

type State =
  | { kind: 'loading' }
  | { kind: 'error'; code: string }
  | { kind: 'editing'; session: Session }
  | { kind: 'done'; session: Session; envelope: Envelope; draft: Draft }

/** The codes a page may end with (PROTOCOL.md embed-error), from whatever went wrong. */
export function embedErrorCode(e: unknown): string {
  if (!(e instanceof ApiError)) return 'INTERNAL'
  if (e.code === 'TOKEN_EXPIRED' || e.code === 'INVALID_TOKEN' || e.code === 'NOT_FOUND' || e.code === 'FORBIDDEN') return e.code
  if (e.status === 401) return 'INVALID_TOKEN'
  if (e.status === 403) return 'FORBIDDEN'
  if (e.status === 404) return 'NOT_FOUND'
  return 'INTERNAL'
}

async function loadSession(launch: Launch): Promise<Session> {
  if (!launch.token) throw new ApiError(401, 'INVALID_TOKEN', 'the page was opened without a token')
  const api = createApi(launch.token)
  const session = await api.get<EmbeddingSession>('/embedding/session')
  const route = launch.route
  if (!isEditRoute(route)) {
    if (session.scope) throw new ApiError(403, 'FORBIDDEN', 'a token scoped to one envelope cannot create new ones')
    const type = route === 'template.create' ? 'TEMPLATE' : route === 'document.create' ? 'DOCUMENT' : (launch.options.type ?? 'DOCUMENT')
    return { launch, api, envelope: null, draft: emptyDraft(type, language()) }
  }
  const envelope = await loadEnvelope(api, launch)
  const { data: attachments } = await api.get<{ data: Attachment[] }>(`/envelope/attachment?envelopeId=${encodeURIComponent(envelope.id)}`)
  return { launch, api, envelope, draft: draftFromEnvelope(envelope, attachments) }
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

export function App({ launch }: { launch: Launch }) {
  const [state, setState] = useState<State>({ kind: 'loading' })

  const fail = useCallback((e: unknown) => {
    const code = embedErrorCode(e)
    setState({ kind: 'error', code })
    post({ type: 'embed-error', code, message: e instanceof Error ? e.message : String(e) })
  }, [])

  const start = useCallback(() => {
    loadSession(launch).then((session) => setState({ kind: 'editing', session }), fail)
  }, [launch, fail])
  useEffect(start, [start])

  useEffect(() => {
    if (state.kind === 'editing' && !readyPosted) {
      readyPosted = true
      post({ type: 'embed-ready' })
    }
  }, [state.kind])

  const finished = useCallback((session: Session, envelope: Envelope, draft: Draft) => {
    for (const message of completionMessages(session, envelope)) post(message)
    setState({ kind: 'done', session, envelope, draft })
  }, [])

  switch (state.kind) {
    case 'loading':
      return <Loading />
    case 'error':
      return <ErrorScreen code={state.code} />
    case 'editing':
      return <Editor session={state.session} onFinished={finished} onFatal={fail} />
    case 'done':
      return (
        <Done
          session={state.session}
          draft={state.draft}
          onAgain={() => {
            setState({ kind: 'loading' })
            if (isEditRoute(launch.route)) start()
            else setState({ kind: 'editing', session: { ...state.session, draft: emptyDraft(state.session.draft.type, language()) } })
          }}
        />
      )
  }
}

let readyPosted = false

/** The base message(s) PROTOCOL.md defines for the route that just finished. */
export function completionMessages(session: Session, envelope: Envelope): EmbedMessage[] {
  const externalId = session.launch.options.externalId ?? null
  const legacy = () => legacyId(envelope.secondaryId)
  switch (session.launch.route) {
    case 'envelope.create':
      return [{ type: 'envelope-created', envelopeId: envelope.id, externalId }]
    case 'envelope.edit':
      return [{ type: 'envelope-updated', envelopeId: envelope.id, externalId }]
    case 'document.create':
      return [{ type: 'document-created', documentId: legacy(), externalId }]
    case 'template.create':
      return [{ type: 'template-created', templateId: legacy(), externalId }]
    case 'document.edit':
      return [{ type: 'document-updated', documentId: legacy(), externalId }]
    case 'template.edit':
      return [{ type: 'template-updated', templateId: legacy(), externalId }]
  }
}

function Loading() {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span className="sr-only">{t('app.loading')}</span>
    </div>
  )
}
