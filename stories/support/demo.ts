import { hostUrl } from 'virtual:envelope-demo'
import { presignScope, type EnvelopeType, type PresignTokenResponse } from '../../src/protocol/index.js'

export { hostUrl }

/** What the loaders hand to the stories in `context.loaded`. */
export interface Loaded {
  token: string
  envelope?: DemoEnvelope
}

export interface DemoEnvelope {
  envelopeId: string
  secondaryId: string
  /** The number in secondaryId: the v1 components' documentId / templateId. */
  legacyId: number
}

/** A refusal of the demo backend (or of the service behind it): its code and message, apart. */
export class DemoError extends Error {
  constructor(
    readonly path: string,
    readonly status: number,
    readonly code: string,
    readonly detail: string,
  ) {
    super(`${path}: ${status} ${code} ${detail}`.trim())
  }
}

async function post<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
  const json = (await res.json().catch(() => ({}))) as T & { message?: string; code?: string }
  if (!res.ok) throw new DemoError(path, res.status, json.code ?? 'HTTP_ERROR', json.message ?? '')
  return json
}

/** A draft document of the sample contract (examples/sample-contract.pdf), with no recipient yet. */
export const createSampleDraft = () => post<DemoEnvelope>('/demo/envelope', { type: 'DOCUMENT', sample: true })

/** A presign token from the demo backend (the backend snippet of examples/backend.ts). */
export const presign = (request: { scope?: string; expiresIn?: number } = {}) =>
  post<PresignTokenResponse>('/presign', request).then((r) => r.token)

/** Creates an envelope with a one-page PDF through the API, on the demo backend. */
export const createDemoEnvelope = (type: EnvelopeType) => post<DemoEnvelope>('/demo/envelope', { type })

/** A team-wide token, for the create components. */
export const tokenLoader = async (): Promise<Loaded> => ({ token: await presign() })

/** A token that is already expired when the page opens it. */
export const expiredTokenLoader = async (): Promise<Loaded> => ({ token: await presign({ expiresIn: 0 }) })

/**
 * A fresh envelope of `type` and a token scoped to it: `envelopeId:` for the v2 component,
 * `documentId:` / `templateId:` (legacy numeric ids) for the v1 ones.
 */
export const envelopeLoader =
  (type: EnvelopeType, scope: 'envelopeId' | 'legacy') =>
  async (): Promise<Required<Loaded>> => {
    const envelope = await createDemoEnvelope(type)
    const scoped =
      scope === 'envelopeId'
        ? presignScope({ kind: 'envelopeId', id: envelope.envelopeId })
        : presignScope({ kind: type === 'TEMPLATE' ? 'templateId' : 'documentId', id: envelope.legacyId })
    return { envelope, token: await presign({ scope: scoped }) }
  }

/** A sent envelope's recipients, as the demo backend answers /demo/signing and /demo/distribute. */
export interface SentEnvelope {
  envelopeId: string
  recipients: SentRecipient[]
}

export interface SentRecipient {
  id: number
  name: string
  email: string
  role: string
  signingOrder: number | null
  /** The recipient's credential for EmbedSignDocument. */
  token: string
  signingUrl: string
}

/**
 * Creates a document for a signer and an approver and sends it (`/demo/signing`). With a `key`
 * (a story's id) the demo backend answers the document it sent for that key while nobody has acted
 * on it, so viewing a story again does not send (and e-mail) another one, and a story played
 * through (signed, approved or rejected) starts again on a fresh one.
 */
export const sendDemoDocument = (signingOrder: 'SEQUENTIAL' | 'PARALLEL' = 'SEQUENTIAL', key?: string) =>
  post<SentEnvelope>('/demo/signing', { signingOrder, key })

/** A template with a direct link, as the demo backend answers /demo/direct. */
export interface DemoDirectLink {
  templateId: string
  templateNumber: number
  /** The link's token: EmbedDirectTemplate's credential. */
  token: string
  /** The shareable page, `{host}/d/{token}`. */
  url: string
}

/** Creates a template with a direct link for its signer (`/demo/direct`). */
export const createDemoDirectLink = (key?: string) => post<DemoDirectLink>('/demo/direct', { key })

/** What the direct-link stories' loader hands over: the link it made, unless a token was typed into the control. */
export interface DirectLoaded {
  link?: DemoDirectLink
}

export const directLoader = async ({ args, id }: { args: { token?: string }; id: string }): Promise<DirectLoaded> =>
  args.token ? {} : { link: await createDemoDirectLink(id) }

/** Sends an envelope authored in a story. */
export const distributeDemoEnvelope = (envelopeId: string) => post<SentEnvelope>('/demo/distribute', { envelopeId })

/** The sealed PDF of a completed envelope, through the demo backend. */
export const signedPdfUrl = (envelopeId: string) => `/demo/signed?envelopeId=${encodeURIComponent(envelopeId)}`

/** What the signing stories' loader hands over: the document it sent, unless a token was typed into the control. */
export interface SignLoaded {
  sent?: SentEnvelope
}

/** The story's own document (sent once, again once someone has acted on it), unless `token` is set. */
export const signingLoader = async ({ args, id }: { args: { token?: string }; id: string }): Promise<SignLoaded> =>
  args.token ? {} : { sent: await sendDemoDocument('SEQUENTIAL', id) }

/** One webhook event as the demo backend's receiver kept it (examples/webhook-receiver.ts). */
export interface DemoEvent {
  event: string
  envelopeId: string
  title: string
  status: string
  createdAt: string
  receivedAt: string
}

/** GET /demo/events: the kept events, newest first, and whether the webhook is registered. */
export interface DemoEvents {
  events: DemoEvent[]
  webhook: { url: string; state: 'registered' | 'off' | 'failed'; message?: string }
}

export async function demoEvents(signal?: AbortSignal): Promise<DemoEvents> {
  const res = await fetch('/demo/events', { signal, cache: 'no-store' })
  if (!res.ok) throw new Error(`/demo/events: ${res.status}`)
  return (await res.json()) as DemoEvents
}
