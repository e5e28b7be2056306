import { buildSignUrl, parseSignMessage, type SignAction } from '../protocol/index.js'
import { useFrame } from './embed.js'
import type { EmbedSignDocumentProps } from './types.js'

/** Which callback each `{action, data}` message of the signing page calls, with its `data`. */
const CALLBACKS = {
  'document-ready': 'onDocumentReady',
  'document-completed': 'onDocumentCompleted',
  'document-rejected': 'onDocumentRejected',
  'document-error': 'onDocumentError',
} as const satisfies Record<SignAction, keyof EmbedSignDocumentProps>

/**
 * Embeds the signing of a document by one recipient: `{host}/embed/sign/{token}#{options}`.
 * `onReady` fires on `embed-ready`, or on `document-ready` from a host without the extensions.
 */
export function EmbedSignDocument(props: EmbedSignDocumentProps) {
  return useFrame(props, {
    title: 'Sign document',
    need: { token: props.token },
    options: ({ name, email, lockName, lockEmail, allowDocumentRejection }) => ({ name, email, lockName, lockEmail, allowDocumentRejection }),
    url: (host, options) => buildSignUrl({ host, token: props.token, options }),
    receive: (p, data) => {
      const m = parseSignMessage(data)
      if (!m) return
      const ready = m.action === 'document-ready'
      ;(p[CALLBACKS[m.action]] as ((data?: unknown) => void) | undefined)?.(...(ready ? [] : [m.data]))
      return ready
    },
    announcesReady: true,
  })
}
