// examples/app/src/App.tsx: create a document, edit it, send it and sign it, beside the webhooks the backend verified.
import { useEffect, useState } from 'react'
import { EmbedSignDocument, EmbedUpdateEnvelope } from 'envelope-embed'
import { callBackend, presign } from './backend'
import { host } from './config'
import { NewContract } from './NewContract'

interface Signer {
  name: string
  email: string
  role: string
  token: string
}

export function App() {
  const [envelopeId, setEnvelopeId] = useState<string>()
  const [signers, setSigners] = useState<Signer[]>()
  return (
    <main>
      <h1>Contracts</h1>
      {!envelopeId && (
        <section>
          <h2>New contract</h2>
          <NewContract orderId="order-1001" onCreated={setEnvelopeId} />
        </section>
      )}
      {envelopeId && !signers && <EditContract envelopeId={envelopeId} onSent={setSigners} />}
      {signers && <SignContract signers={signers} />}
      <WebhookEvents />
    </main>
  )
}

function EditContract({ envelopeId, onSent }: { envelopeId: string; onSent: (signers: Signer[]) => void }) {
  const [token, setToken] = useState<string>()
  const [problem, setProblem] = useState<string>()

  useEffect(() => {
    // A token for this envelope only.
    presign(`envelopeId:${envelopeId}`).then(setToken, (e: Error) => setProblem(e.message))
  }, [envelopeId])

  async function send() {
    try {
      const { recipients } = await callBackend<{ recipients: Signer[] }>('/send', { envelopeId })
      onSent(recipients)
    } catch (e) {
      setProblem((e as Error).message)
    }
  }

  return (
    <section>
      <h2>Document created</h2>
      <p role="status">
        Created <code>{envelopeId}</code>. Edit it, then <button onClick={send}>Send for signing</button>
      </p>
      {problem && <p role="alert">{problem}</p>}
      {token && (
        <EmbedUpdateEnvelope
          host={host}
          presignToken={token}
          envelopeId={envelopeId}
          className="embed"
          autoHeight
          onError={(e) => setProblem(`${e.code}: ${e.message}`)}
        />
      )}
    </section>
  )
}

function SignContract({ signers }: { signers: Signer[] }) {
  const [index, setIndex] = useState(0)
  const [done, setDone] = useState<string>()
  const signer = signers[index]
  if (!signer) return <p>This document has no recipients.</p>
  return (
    <section>
      <h2>Sign</h2>
      <label>
        Sign as{' '}
        <select value={index} onChange={(e) => setIndex(Number(e.target.value))}>
          {signers.map((s, i) => (
            <option key={s.token} value={i}>
              {s.name} ({s.role.toLowerCase()})
            </option>
          ))}
        </select>
      </label>
      {done && <p role="status">{done}</p>}
      <EmbedSignDocument
        key={signer.token}
        host={host}
        token={signer.token}
        className="embed"
        autoHeight
        onDocumentCompleted={() => setDone(`${signer.name} completed the document.`)}
        onDocumentRejected={({ reason }) => setDone(`${signer.name} rejected it: ${reason}`)}
      />
    </section>
  )
}

interface ReceivedEvent {
  event: string
  envelopeId: string
  title: string
  status: string
  createdAt: string
}

/** The webhook calls the backend received and verified, newest first. */
function WebhookEvents() {
  const [events, setEvents] = useState<ReceivedEvent[]>([])
  const [problem, setProblem] = useState<string>()
  useEffect(() => {
    const load = () =>
      callBackend<{ events: ReceivedEvent[]; webhooks: 'on' | 'off' }>('/events').then(
        (answer) => {
          setEvents(answer.events)
          setProblem(answer.webhooks === 'off' ? 'webhooks are off: set WEBHOOK_SIGNING_KEY for the backend' : undefined)
        },
        (e: Error) => setProblem(e.message),
      )
    void load()
    const timer = setInterval(load, 2000)
    return () => clearInterval(timer)
  }, [])
  return (
    <section aria-labelledby="events-heading">
      <h2 id="events-heading">Webhooks received</h2>
      {problem && <p role="alert">{problem}</p>}
      {events.length === 0 && !problem && <p>None yet.</p>}
      <ul className="events">
        {events.map((e) => (
          <li key={`${e.event} ${e.envelopeId} ${e.createdAt}`}>
            {e.event} {e.envelopeId} “{e.title}” ({e.status})
          </li>
        ))}
      </ul>
    </section>
  )
}
