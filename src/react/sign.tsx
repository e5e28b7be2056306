import { buildDirectUrl, buildMultiSignUrl, buildSignUrl, parseSignMessage, type SignAction } from '../protocol/index.js'
import type { Ref } from 'react'
import { callbackOf, component, useFrame } from './embed.js'
import type { EmbedDirectTemplateProps, EmbedMultiSignDocumentProps, EmbedSignDocumentProps, EmbedSigningProps, SigningHandle } from './types.js'

/** The callbacks whose names are not their message's: `document-ready` calls `onDocumentReady`, but `document-waiting-for-turn` `onWaitingForTurn`. */
const RENAMED: Partial<Record<SignAction, string>> = { 'document-waiting-for-turn': 'onWaitingForTurn', 'recipient-expired': 'onLinkExpired' }


/**
 * The recipient's frame: the signing page's options and its `{action, data}` messages. `onReady`
 * fires on `embed-ready`, or on `document-ready` from a host without the extensions.
 */
function useSigningFrame<P extends EmbedSigningProps & { token: string }>(props: P, url: (host: string, options: object) => string, ref?: Ref<SigningHandle>) {
  return useFrame(props, {
    title: 'Sign document',
    need: 'token',
    options: ({ name, email, lockName, lockEmail, ...p }: P & { allowDocumentRejection?: boolean }) => ({ name, email, lockName, lockEmail, allowDocumentRejection: p.allowDocumentRejection }),
    url,
    receive: (p, data) => {
      const m = parseSignMessage(data)
      if (!m) return
      const ready = m.action === 'document-ready'
      // Readiness, field changes and the states' moments carry nothing for the callback.
      ;(p[(RENAMED[m.action] ?? callbackOf(m.action)) as keyof P] as ((data?: unknown) => void) | undefined)?.(...(ready || m.data == null || m.action.startsWith('field-') ? [] : [m.data]))
      return ready
    },
    announcesReady: true,
    commands: 'nextField setZoom download',
  }, ref)
}

/** Embeds the signing of a document by one recipient: `{host}/embed/sign/{token}#{options}`; `ref` gets its handle. */
export const EmbedSignDocument = component<EmbedSignDocumentProps, SigningHandle>((props, ref) =>
  useSigningFrame(props, (host, options) => buildSignUrl({ host, token: props.token, options }), ref),
)

/** Embeds a template's direct link: `{host}/embed/direct/{token}?externalId=…#{options}`; `ref` gets its handle. */
export const EmbedDirectTemplate = component<EmbedDirectTemplateProps, SigningHandle>((props, ref) =>
  useSigningFrame(props, (host, options) => buildDirectUrl({ host, token: props.token, externalId: props.externalId, options }), ref),
)

/** Embeds one person's documents, each signed in turn: `{host}/embed/v1/multisign?token=a&token=b#{options}`. */
export function EmbedMultiSignDocument(props: EmbedMultiSignDocumentProps) {
  return useSigningFrame({ ...props, token: props.tokens.join() }, (host, options) => buildMultiSignUrl({ host, tokens: props.tokens, options }))
}
