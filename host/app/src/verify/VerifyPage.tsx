import { useRef, useState, type DragEvent } from 'react'

interface Signature {
  subFilter: string | null
  intact: boolean
  coversWholeDocument: boolean
  signedAt: string | null
  timestamp: { time: string; intact: boolean; authority: string | null } | null
  certificate: { subject: string; issuer: string; validFrom: string; validTo: string; selfSigned: boolean; sha256Fingerprint: string } | null
  problem?: string
}

interface Result {
  sha256: string
  pageCount: number
  valid: boolean
  signatures: Signature[]
  document: { title: string; completedAt: string | null; recipients: { name: string; role: string; completedAt: string | null }[] } | null
}

type State = { kind: 'idle' } | { kind: 'checking'; name: string } | { kind: 'done'; name: string; result: Result } | { kind: 'failed'; message: string }

const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }) : '—')

export function VerifyPage() {
  const [state, setState] = useState<State>({ kind: 'idle' })
  const [dragging, setDragging] = useState(false)
  const input = useRef<HTMLInputElement>(null)

  const check = async (file: File) => {
    setState({ kind: 'checking', name: file.name })
    try {
      const res = await fetch('/api/v2/verify', { method: 'POST', headers: { 'content-type': 'application/pdf' }, body: file })
      const body = await res.json()
      if (!res.ok) setState({ kind: 'failed', message: body.message ?? `The check failed (${res.status}).` })
      else setState({ kind: 'done', name: file.name, result: body as Result })
    } catch {
      setState({ kind: 'failed', message: 'The file could not be sent. Check the connection and try again.' })
    }
  }
  const onDrop = (e: DragEvent) => {
    e.preventDefault()
    setDragging(false)
    const file = e.dataTransfer.files[0]
    if (file) void check(file)
  }

  return (
    <main className="verify">
      <h1>Verify a signed document</h1>
      <p className="verify-lead">Choose a PDF you received. It is checked on this server and not kept.</p>
      <label
        className={`verify-drop${dragging ? ' is-dragging' : ''}`}
        onDragOver={(e) => {
          e.preventDefault()
          setDragging(true)
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <input
          ref={input}
          type="file"
          accept="application/pdf,.pdf"
          data-testid="verify-file"
          onChange={(e) => {
            const file = e.target.files?.[0]
            if (file) void check(file)
            e.target.value = ''
          }}
        />
        <span className="verify-drop-title">Drop a PDF here or choose a file</span>
      </label>
      <section aria-live="polite">
        {state.kind === 'checking' && <p className="verify-status">Checking {state.name}…</p>}
        {state.kind === 'failed' && (
          <p className="verify-verdict is-bad" role="alert">
            {state.message}
          </p>
        )}
        {state.kind === 'done' && <Report name={state.name} result={state.result} />}
      </section>
    </main>
  )
}

function Report({ name, result }: { name: string; result: Result }) {
  const verdict = !result.signatures.length
    ? 'This file carries no signature.'
    : result.valid
      ? 'The seal is intact: the file has not been changed since it was signed.'
      : 'This file was changed after it was signed, or a signature does not check out.'
  return (
    <div className="verify-report">
      <p className={`verify-verdict ${result.valid ? 'is-good' : 'is-bad'}`} data-testid="verify-verdict">
        {verdict}
      </p>
      <dl className="verify-facts">
        <dt>File</dt>
        <dd>{name}</dd>
        <dt>Pages</dt>
        <dd>{result.pageCount}</dd>
        <dt>SHA-256</dt>
        <dd className="verify-hash">{result.sha256}</dd>
      </dl>
      {result.document && (
        <div className="verify-card" data-testid="verify-document">
          <h2>Completed on this service</h2>
          <dl className="verify-facts">
            <dt>Title</dt>
            <dd>{result.document.title}</dd>
            <dt>Completed</dt>
            <dd>{when(result.document.completedAt)}</dd>
            <dt>Recipients</dt>
            <dd>
              <ul>
                {result.document.recipients.map((r, i) => (
                  <li key={i}>
                    {r.name || '—'} ({r.role.toLowerCase()}){r.completedAt ? `, ${when(r.completedAt)}` : ''}
                  </li>
                ))}
              </ul>
            </dd>
          </dl>
        </div>
      )}
      {result.signatures.map((s, i) => (
        <div className="verify-card" key={i} data-testid="verify-signature">
          <h2>
            Signature {i + 1} <span className={`verify-badge ${s.intact && s.coversWholeDocument ? 'is-good' : 'is-bad'}`}>{s.intact ? (s.coversWholeDocument ? 'Intact, whole file' : 'Intact, but content was added after it') : 'Broken'}</span>
          </h2>
          <dl className="verify-facts">
            {s.problem && (
              <>
                <dt>Problem</dt>
                <dd>{s.problem}</dd>
              </>
            )}
            <dt>Form</dt>
            <dd>{s.subFilter === 'ETSI.CAdES.detached' ? 'PAdES (ETSI.CAdES.detached)' : s.subFilter ?? '—'}</dd>
            <dt>Signed</dt>
            <dd>{when(s.signedAt)}</dd>
            <dt>Timestamp</dt>
            <dd>{s.timestamp ? `${when(s.timestamp.time)} by ${s.timestamp.authority ?? 'an unnamed authority'}${s.timestamp.intact ? '' : ' (does not check out)'}` : 'none'}</dd>
            {s.certificate && (
              <>
                <dt>Certificate</dt>
                <dd>{s.certificate.subject}</dd>
                <dt>Issued by</dt>
                <dd>{s.certificate.selfSigned ? `${s.certificate.issuer} (self-signed: a demonstration seal)` : s.certificate.issuer}</dd>
                <dt>Valid</dt>
                <dd>
                  {when(s.certificate.validFrom)} – {when(s.certificate.validTo)}
                </dd>
              </>
            )}
          </dl>
        </div>
      ))}
    </div>
  )
}
