// examples/app/src/NewContract.tsx
import { useEffect, useState } from 'react'
import { EmbedCreateEnvelope } from 'envelope-embed'
import { presign } from './backend'
import { host } from './config' // the signing service's origin, e.g. https://sign.example.com

export function NewContract({ orderId, onCreated }: { orderId: string; onCreated: (envelopeId: string) => void }) {
  const [token, setToken] = useState<string>()
  const [problem, setProblem] = useState<string>()
  useEffect(() => void presign().then(setToken, (e: Error) => setProblem(e.message)), [])

  if (problem) return <p role="alert">Cannot open the editor: {problem}</p>
  if (!token) return <p>Loading…</p>
  return (
    <EmbedCreateEnvelope
      host={host}
      presignToken={token}
      type="DOCUMENT"
      externalId={orderId}
      className="embed" // width: 100%; min-height: 720px (app.css)
      autoHeight // then as tall as its content: your page scrolls, not the frame
      onError={(e) => setProblem(`${e.code}: ${e.message}`)}
      onDocumentCreated={({ envelopeId }) => onCreated(envelopeId)} // store it beside your order
    />
  )
}
