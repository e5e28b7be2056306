import { useEffect, useState, type CSSProperties, type ReactNode } from 'react'
import type { Decorator } from '@storybook/react-vite'
import { demoEvents, hostUrl, type DemoEvents, type SignLoaded } from './demo.js'

const POLL_MS = 1000
/** An event stays highlighted this long after it arrived. */
const FRESH_MS = 4000

/**
 * What the service delivered in the background: the webhook events the demo backend received and
 * verified (examples/webhook-receiver.ts, at POST /demo/webhook), polled from GET /demo/events
 * every second, and the local mailbox where the e-mails go.
 */
export function DeliveryPanel({ envelopeId }: { envelopeId?: string | undefined }) {
  const [answer, setAnswer] = useState<DemoEvents>()
  const [problem, setProblem] = useState<string>()
  const [onlyThis, setOnlyThis] = useState(true)
  const [now, setNow] = useState(() => Date.now())

  useEffect(() => {
    const stop = new AbortController()
    let timer: ReturnType<typeof setTimeout> | undefined
    const poll = async () => {
      try {
        setAnswer(await demoEvents(stop.signal))
        setProblem(undefined)
      } catch (e) {
        if (stop.signal.aborted) return
        setProblem(e instanceof Error ? e.message : String(e))
      }
      setNow(Date.now())
      if (!stop.signal.aborted) timer = setTimeout(poll, POLL_MS)
    }
    void poll()
    return () => {
      stop.abort()
      clearTimeout(timer)
    }
  }, [])

  const filtered = !!envelopeId && onlyThis
  const events = (answer?.events ?? []).filter((e) => !filtered || e.envelopeId === envelopeId)
  const webhook = answer?.webhook

  return (
    <aside aria-label="Deliveries" style={styles.panel}>
      <h3 style={styles.heading}>Webhook events</h3>
      <p style={styles.note}>
        {webhook?.state === 'registered' ? (
          <>
            The service calls <code>{new URL(webhook.url).pathname}</code> on this server for every event; the demo backend verifies each
            call's signature with the webhook's signing key (<code>verifyNodeWebhook</code>) and keeps the last ones.
          </>
        ) : webhook ? (
          <span role="status">No webhook: {webhook.message}</span>
        ) : (
          'Connecting…'
        )}
      </p>
      {envelopeId && (
        <label style={styles.filter}>
          <input type="checkbox" checked={onlyThis} onChange={(e) => setOnlyThis(e.target.checked)} /> Only this document
        </label>
      )}
      {problem && <p role="alert" style={styles.problem}>{problem}</p>}
      <ol aria-label="Webhook events" aria-live="polite" style={styles.list}>
        {events.map((e) => (
          <li
            key={`${e.event} ${e.envelopeId} ${e.createdAt}`}
            data-event={e.event}
            data-envelope-id={e.envelopeId}
            style={{ ...styles.item, ...(now - Date.parse(e.receivedAt) < FRESH_MS && styles.fresh) }}
          >
            <div style={styles.row}>
              <code style={styles.event}>{e.event}</code>
              <time dateTime={e.receivedAt} style={styles.time}>
                {new Date(e.receivedAt).toLocaleTimeString()}
              </time>
            </div>
            <div style={styles.meta}>
              {e.title} · {e.status}
              {!filtered && <> · {e.envelopeId}</>}
            </div>
          </li>
        ))}
      </ol>
      {answer && events.length === 0 && <p style={styles.note}>Waiting for the first event…</p>}
      <h3 style={styles.heading}>E-mail</h3>
      <p style={styles.note}>
        Signing requests, the next signer&apos;s turn and the sealed PDF on completion go to the recipients by e-mail. Here no mail
        server is set, so the service keeps them:{' '}
        <a href={`${hostUrl}/mailbox`} target="_blank" rel="noreferrer">
          Local mailbox
        </a>
      </p>
    </aside>
  )
}

/** The story on the left, the delivery panel on the right (below it on narrow screens). */
export function WithDeliveries({ envelopeId, caption, children }: { envelopeId?: string | undefined; caption?: ReactNode; children: ReactNode }) {
  return (
    <div style={styles.layout}>
      <div style={styles.main}>
        {caption && <p style={styles.caption}>{caption}</p>}
        {children}
      </div>
      <DeliveryPanel envelopeId={envelopeId} />
    </div>
  )
}

/**
 * For the signing stories: the panel beside the embed, following the document the loader sent,
 * with who is signing above it. Not on docs pages (one panel per story there would be noise),
 * nor where `parameters.deliveries` is false.
 */
export const withDeliveryPanel: Decorator = (Story, context) => {
  if (context.viewMode === 'docs' || context.parameters.deliveries === false) return <Story />
  const { sent } = context.loaded as SignLoaded
  const index = Number(context.args.recipient ?? 0)
  const who = sent?.recipients[index]
  const caption =
    who && !context.args.token ? (
      <>
        <strong>{who.name}</strong>&apos;s link ({who.role.toLowerCase()}, {index + 1} of {sent.recipients.length} in signing order) to{' '}
        {sent.envelopeId}, just sent by the demo backend
      </>
    ) : undefined
  return (
    <WithDeliveries envelopeId={context.args.token ? undefined : sent?.envelopeId} caption={caption}>
      <Story />
    </WithDeliveries>
  )
}

const styles = {
  layout: { display: 'flex', flexWrap: 'wrap', gap: 16, alignItems: 'flex-start' },
  main: { flex: '1 1 560px', minWidth: 0 },
  caption: { margin: '0 0 8px', font: '13px/1.4 system-ui, sans-serif', color: '#444' },
  panel: {
    flex: '0 1 300px',
    minWidth: 260,
    boxSizing: 'border-box',
    padding: 12,
    border: '1px solid #e2e2e2',
    borderRadius: 8,
    background: '#fafafa',
    font: '13px/1.4 system-ui, sans-serif',
    color: '#222',
  },
  heading: { margin: '0 0 6px', fontSize: 14 },
  note: { margin: '0 0 10px', color: '#555' },
  filter: { display: 'block', margin: '0 0 8px' },
  problem: { margin: '0 0 8px', color: '#b42318' },
  list: { listStyle: 'none', margin: '0 0 12px', padding: 0, maxHeight: 420, overflowY: 'auto' },
  item: { padding: '6px 8px', marginBottom: 4, borderRadius: 6, background: '#fff', borderWidth: 1, borderStyle: 'solid', borderColor: '#eee', transition: 'background 1s' },
  fresh: { background: '#e8f3ff', borderColor: '#b6d7ff' },
  row: { display: 'flex', justifyContent: 'space-between', gap: 8 },
  event: { fontWeight: 600, fontSize: 12, overflowWrap: 'anywhere' },
  time: { color: '#777', fontSize: 12, whiteSpace: 'nowrap' },
  meta: { color: '#555', fontSize: 12, overflowWrap: 'anywhere' },
} satisfies Record<string, CSSProperties>
