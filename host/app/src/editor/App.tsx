import { useCallback, useEffect, useRef, useState } from 'react'
import type { EmbedMessage, EmbedProblem } from '../../../../src/protocol/index.js'
import { ApiError } from '../page/api.js'
import { isEditRoute, type Launch } from '../page/boot.js'
import { CommandRefusal, onCommand, post } from '../page/bridge.js'
import { emptyDraft, type Draft, type StepId } from './draft/model.js'
import { language, t } from '../i18n/index.js'
import { loadSession, type Session } from './session.js'
import { legacyId, type Envelope } from '../page/types.js'
import { Done, Sent } from './Done.js'
import { Editor, type EditorControl } from './Editor.js'
import { ErrorScreen } from '../page/ErrorScreen.js'

type State =
  | { kind: 'loading' }
  | { kind: 'error'; code: string }
  | { kind: 'editing'; session: Session }
  | { kind: 'done'; session: Session; envelope: Envelope; draft: Draft }

/** The codes a page may end with (embed-error, docs/protocol.md), from whatever went wrong. */
export function embedErrorCode(e: unknown): string {
  if (!(e instanceof ApiError)) return 'INTERNAL'
  if (e.code === 'TOKEN_EXPIRED' || e.code === 'INVALID_TOKEN' || e.code === 'NOT_FOUND' || e.code === 'FORBIDDEN') return e.code
  if (e.status === 401) return 'INVALID_TOKEN'
  if (e.status === 403) return 'FORBIDDEN'
  if (e.status === 404) return 'NOT_FOUND'
  return 'INTERNAL'
}

/**
 * `first` is the session main.tsx started loading before React rendered anything, so the
 * network and the first render overlap; later loads (Keep editing) start here.
 */
export function App({ launch, first }: { launch: Launch; first: Promise<Session> | Session }) {
  const [state, setState] = useState<State>(() => (first instanceof Promise ? { kind: 'loading' } : { kind: 'editing', session: first }))

  const fail = useCallback((e: unknown) => {
    const code = embedErrorCode(e)
    setState({ kind: 'error', code })
    post({ type: 'embed-error', code, message: e instanceof Error ? e.message : String(e) })
  }, [])

  const pending = useRef<Promise<Session> | null>(first instanceof Promise ? first : null)
  const start = useCallback(() => {
    const load = pending.current ?? loadSession(launch)
    pending.current = null
    return load.then((session) => setState({ kind: 'editing', session }), fail)
  }, [launch, fail])
  // Nothing to wait for when the session came with the page.
  const startsEditing = useRef(!(first instanceof Promise))
  useEffect(() => {
    if (!startsEditing.current) start()
  }, [start])

  // The parent's commands (registered before ready, which announces them), answered by the open editor.
  const control = useRef<EditorControl | null>(null)
  const latest = useRef({ state, start })
  latest.current = { state, start }
  useEffect(() => {
    const editor = () => control.current ?? refuse('NOT_READY', 'no editor is open')
    const offs = [
      onCommand('save', async () => {
        const open = editor()
        const result = await open.save()
        if (Array.isArray(result)) refuse('REFUSED', result.map((p) => p.message).join(' '), result)
        // What the done callback gets: the done message without its type, and its externalId only when set.
        const { type: _, externalId, ...rest } = completionMessages(open.session, result as Envelope)[0] as EmbedMessage & { externalId: string | null }
        return externalId == null ? rest : { ...rest, externalId }
      }),
      onCommand('goToStep', (step: StepId) => void (editor().goTo(step) || refuse('REFUSED', `no step ${String(step)} here`))),
      onCommand('isDirty', () => control.current?.dirty() ?? false),
      onCommand('reload', async () => {
        const { state, start } = latest.current
        if (state.kind === 'loading') refuse('NOT_READY', 'the page is loading')
        control.current?.forget()
        setState({ kind: 'loading' })
        // Create routes start afresh; edit routes load the envelope again.
        if (isEditRoute(launch.route) || state.kind === 'error') return void (await start())
        const session = (state as { session: Session }).session
        setState({ kind: 'editing', session: { ...session, draft: emptyDraft(session.draft.type, language()) } })
      }),
    ]
    return () => offs.forEach((off) => off())
  }, [launch])

  useEffect(() => {
    if (state.kind === 'editing' && !readyPosted) {
      readyPosted = true
      post({ type: 'embed-ready' })
    }
  }, [state.kind])

  // The console (this host's own page, the only parent of this origin) asks the editor to save
  // before it sends the envelope, so what is sent is what the person sees; it hears whether it was.
  const save = useRef<(() => Promise<boolean>) | null>(null)
  const registerSave = useCallback((fn: (() => Promise<boolean>) | null) => void (save.current = fn), [])
  const kind = useRef(state.kind)
  kind.current = state.kind
  useEffect(() => {
    const on = async (e: MessageEvent) => {
      if (e.source !== window.parent || window.parent === window || e.origin !== location.origin || e.data?.type !== 'editor-save') return
      const saved = save.current ? await save.current() : kind.current === 'done'
      window.parent.postMessage({ type: 'editor-save-result', saved }, location.origin)
    }
    addEventListener('message', on)
    return () => removeEventListener('message', on)
  }, [])

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
      if (state.session.envelope && state.session.envelope.status !== 'DRAFT') return <Sent session={state.session} />
      return <Editor session={state.session} onFinished={finished} onFatal={fail} onStale={() => (setState({ kind: 'loading' }), start())} registerSave={registerSave} control={control} />
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

function refuse(code: 'REFUSED' | 'NOT_READY', message: string, problems?: EmbedProblem[]): never {
  throw new CommandRefusal(code, message, problems)
}

/** The base message(s) docs/protocol.md lists for the route that just finished. */
export function completionMessages(session: Session, envelope: Envelope): EmbedMessage[] {
  const externalId = session.launch.options.externalId ?? null
  const legacy = () => {
    const id = legacyId(envelope.secondaryId)
    if (id === null) throw new Error(`no legacy id in ${envelope.secondaryId}`)
    return id
  }
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
