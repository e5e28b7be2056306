import { useId, useRef, useState } from 'react'
import type { EvidenceCheck } from '../../../../src/protocol/evidence.js'
import { Icon } from '../page/icons.js'
import { verifyLanguage, vt, type VerifyWord } from './words.js'

const roleWord = (role: string) => (`role_${role}` in ROLE_KEYS ? vt(`role_${role}` as VerifyWord) : role.toLowerCase())
const ROLE_KEYS = { role_SIGNER: 1, role_APPROVER: 1, role_VIEWER: 1, role_CC: 1, role_ASSISTANT: 1 }

interface Signature {
  kind: 'signature' | 'document-timestamp'
  subFilter: string | null
  intact: boolean
  coversWholeDocument: boolean
  /** What the file holds after it: nothing, validation data, changes to the document, or bytes that are neither (docs/sealing.md). */
  updatesAfter: 'none' | 'validation' | 'changes' | 'unrecognized'
  level: 'B-B' | 'B-T' | 'B-LT' | 'B-LTA' | null
  signedAt: string | null
  timestamp: { time: string; intact: boolean; authority: string | null } | null
  certificate: { subject: string; issuer: string; validFrom: string; validTo: string; selfSigned: boolean; sha256Fingerprint: string } | null
  problem?: string
  /** Its certificate is one this service seals with (by fingerprint). */
  sealOfThisService: boolean
}

interface Result {
  evidence?: EvidenceCheck
  sha256: string
  pageCount: number
  valid: boolean
  sealedByThisService: boolean
  signatures: Signature[]
  /** The document timestamps in the order of the file, each with whether it covers the signature or timestamp before it. */
  timestamps?: { time: string | null; authority: string | null; intact: boolean; coversPrevious: boolean }[]
  document: { title: string; completedAt: string | null; recipients: { name: string; role: string; completedAt: string | null }[] } | null
}

type State =
  | { kind: 'idle' }
  | { kind: 'checking'; name: string }
  | { kind: 'done'; name: string; result: Result }
  | { kind: 'evidence'; name: string; evidence: EvidenceCheck }
  | { kind: 'failed'; message: string }

/** An evidence file (a JWS) rather than a PDF, by its name or type. */
const isEvidence = (file: File) => /\.jws$/i.test(file.name) || file.type === 'application/jose'

const LEVEL_WORDS = { 'B-B': 'level_BB', 'B-T': 'level_BT', 'B-LT': 'level_BLT', 'B-LTA': 'level_BLTA' } as const

/** The badge: intact over the whole file, intact with only validation data after it, or not. */
function badge(s: Signature): { good: boolean; text: string } {
  if (!s.intact) return { good: false, text: vt('brokenBadge') }
  if (s.coversWholeDocument) return { good: true, text: vt('intactWhole') }
  if (s.updatesAfter === 'validation') return { good: true, text: vt('intactValidation') }
  return { good: false, text: vt(s.updatesAfter === 'unrecognized' ? 'intactUncovered' : 'intactAdded') }
}

/** What an intact signature's "added after it" says, when anything was. */
const AFTER_WORDS = { validation: 'afterValidation', changes: 'afterChanges', unrecognized: 'afterUnrecognized' } as const

/** Who vouches for the certificate: this service's seal (its demonstration seal when self-signed), an issuer, or no one. */
function issuerText(s: Signature): string {
  const { issuer, selfSigned } = s.certificate!
  if (s.sealOfThisService) return vt(selfSigned ? 'ownDemonstration' : 'ownSeal', { issuer })
  return selfSigned ? vt('selfSigned', { issuer }) : issuer
}

const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString(verifyLanguage, { dateStyle: 'medium', timeStyle: 'medium' }) : '—')

export function VerifyPage() {
  const [state, setState] = useState<State>({ kind: 'idle' })
  const [chosen, setChosen] = useState<{ pdf: string | null; evidence: string | null }>({ pdf: null, evidence: null })
  const files = useRef<{ pdf: File | null; evidence: File | null }>({ pdf: null, evidence: null })

  /** Takes the files chosen or dropped (a PDF, an evidence file, or one of each), then checks what has been chosen so far. */
  const check = async (given: File[]) => {
    if (!given.length) return
    for (const file of given.slice(0, 2)) files.current[isEvidence(file) ? 'evidence' : 'pdf'] = file
    const { pdf, evidence } = files.current
    setChosen({ pdf: pdf?.name ?? null, evidence: evidence?.name ?? null })
    const name = [pdf?.name, evidence?.name].filter(Boolean).join(' + ')
    setState({ kind: 'checking', name })
    const form = new FormData()
    if (pdf) form.append('file', pdf)
    if (evidence) form.append('evidence', evidence)
    try {
      const res = await fetch('/api/v2/verify', { method: 'POST', body: form })
      const body = await res.json()
      if (!res.ok) setState({ kind: 'failed', message: body.message ?? vt('failed', { status: res.status }) })
      else if (!pdf) setState({ kind: 'evidence', name, evidence: (body as { evidence: EvidenceCheck }).evidence })
      else setState({ kind: 'done', name: pdf.name, result: body as Result })
    } catch {
      setState({ kind: 'failed', message: vt('offline') })
    }
  }

  return (
    <main className="verify">
      <h1>{vt('title')}</h1>
      <p className="verify-lead">{vt('lead')}</p>
      <FileDrop accept="application/pdf,.pdf" testId="verify-file" title={vt('drop')} button={vt('choosePdf')} chosen={chosen.pdf} onFiles={check} />
      <FileDrop accept=".jws,application/jose" testId="verify-evidence-file" title={vt('evidenceDrop')} button={vt('chooseEvidence')} chosen={chosen.evidence} onFiles={check} secondary />
      <section aria-live="polite">
        {state.kind === 'checking' && <p className="verify-status">{vt('checking', { name: state.name })}</p>}
        {state.kind === 'failed' && (
          <p className="verify-verdict is-bad" role="alert">
            {state.message}
          </p>
        )}
        {state.kind === 'done' && <Report name={state.name} result={state.result} />}
        {state.kind === 'evidence' && <EvidenceReport evidence={state.evidence} />}
      </section>
    </main>
  )
}

/**
 * A file input the page styles: a zone to drop a file on, a button that opens the file chooser
 * (a click, or Enter or Space once focused), and the name of the file chosen. The input itself is
 * hidden; the button stands for it, its name and what the zone says read with it.
 */
function FileDrop(props: { accept: string; testId: string; title: string; button: string; chosen: string | null; onFiles: (files: File[]) => void; secondary?: boolean }) {
  const { accept, testId, title, button, chosen, onFiles, secondary } = props
  const input = useRef<HTMLInputElement>(null)
  const [over, setOver] = useState(false)
  const id = useId()
  return (
    <div
      className={`dropzone verify-drop${secondary ? ' is-secondary' : ''}`}
      data-over={over || undefined}
      data-testid={`${testId}-zone`}
      onDragOver={(e) => {
        e.preventDefault()
        if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy'
        setOver(true)
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault()
        setOver(false)
        onFiles(Array.from(e.dataTransfer?.files ?? []))
      }}
    >
      {!secondary && (
        <span className="dropzone-icon">
          <Icon name="upload" size={28} />
        </span>
      )}
      <p className="dropzone-title" id={`${id}-title`}>
        {title}
      </p>
      <button type="button" className={`btn ${secondary ? 'btn-secondary' : 'btn-primary'} verify-choose`} aria-describedby={`${id}-title ${id}-chosen`} data-testid={`${testId}-button`} onClick={() => input.current?.click()}>
        <Icon name="file" />
        {button}
      </button>
      <p className={`verify-chosen${chosen ? ' is-chosen' : ''}`} id={`${id}-chosen`} data-testid={`${testId}-chosen`}>
        {chosen ? vt('chosen', { name: chosen }) : vt('nothingChosen')}
      </p>
      <input
        ref={input}
        type="file"
        accept={accept}
        hidden
        data-testid={testId}
        onChange={(e) => {
          onFiles(Array.from(e.target.files ?? []))
          e.target.value = ''
        }}
      />
    </div>
  )
}

/** What the evidence file proves: this service signed it, the PDF is one of its documents, the audit log still holds. */
function EvidenceReport({ evidence }: { evidence: EvidenceCheck }) {
  const log = evidence.auditLog
  return (
    <div className="verify-card" data-testid="verify-evidence">
      <h2>{vt('evidenceTitle')}</h2>
      <p className={`verify-verdict ${evidence.valid ? 'is-good' : 'is-bad'}`} data-testid="verify-evidence-verdict">
        {evidence.valid ? vt('evidenceValid') : vt('evidenceInvalid', { reason: evidence.reason ?? '' })}
      </p>
      {evidence.valid && (
        <dl className="verify-facts">
          <dt>{vt('evidenceEnvelope')}</dt>
          <dd className="verify-hash">{evidence.envelopeId}</dd>
          <dt>{vt('evidenceGenerated')}</dt>
          <dd>{when(evidence.generatedAt)}</dd>
          {evidence.pdf && (
            <>
              <dt>{vt('evidencePdf')}</dt>
              <dd data-testid="verify-evidence-pdf">{vt(evidence.pdf.as === 'sealed' ? 'evidencePdfSealed' : evidence.pdf.as === 'original' ? 'evidencePdfOriginal' : 'evidencePdfOther')}</dd>
            </>
          )}
          <dt>{vt('evidenceLog')}</dt>
          <dd data-testid="verify-evidence-log">{vt(!log ? 'evidenceLogUnknown' : log.intact ? 'evidenceLogIntact' : 'evidenceLogBroken')}</dd>
        </dl>
      )}
    </div>
  )
}

function Report({ name, result }: { name: string; result: Result }) {
  // Intact signatures made with a self-signed certificate that is not this service's prove nothing about who signed.
  const unvouched = result.valid && !result.sealedByThisService && result.signatures.some((s) => s.kind === 'signature' && s.certificate?.selfSigned)
  // Every signature checks out over what it signed, yet the file is not valid: something was added that none covers.
  const changedAfter = !result.valid && result.signatures.length > 0 && result.signatures.every((s) => s.intact)
  const verdict = !result.signatures.length ? vt('noSignature') : changedAfter ? vt('changedAfter') : !result.valid ? vt('broken') : unvouched ? vt('intactUnvouched') : vt('intact')
  return (
    <div className="verify-report">
      <p className={`verify-verdict ${result.valid && !unvouched ? 'is-good' : 'is-bad'}`} data-testid="verify-verdict">
        {verdict}
      </p>
      <dl className="verify-facts">
        <dt>{vt('file')}</dt>
        <dd>{name}</dd>
        <dt>{vt('pages')}</dt>
        <dd>{result.pageCount}</dd>
        <dt>SHA-256</dt>
        <dd className="verify-hash">{result.sha256}</dd>
      </dl>
      {result.evidence && <EvidenceReport evidence={result.evidence} />}
      {result.document && (
        <div className="verify-card" data-testid="verify-document">
          <h2>{vt('completedHere')}</h2>
          <dl className="verify-facts">
            <dt>{vt('docTitle')}</dt>
            <dd>{result.document.title}</dd>
            <dt>{vt('completed')}</dt>
            <dd>{when(result.document.completedAt)}</dd>
            <dt>{vt('recipients')}</dt>
            <dd>
              <ul>
                {result.document.recipients.map((r, i) => (
                  <li key={i}>
                    {r.name || '—'} ({roleWord(r.role)}){r.completedAt ? `, ${when(r.completedAt)}` : ''}
                  </li>
                ))}
              </ul>
            </dd>
          </dl>
        </div>
      )}
      {!!result.timestamps?.length && (
        <div className="verify-card" data-testid="verify-timestamps">
          <h2>{vt('timestampChain')}</h2>
          <p>{vt('timestampChainLead')}</p>
          <ol className="verify-chain">
            {result.timestamps.map((t, i) => (
              <li key={i} data-testid="verify-chain-entry">
                {vt('timestampBy', { when: when(t.time), authority: t.authority ?? vt('unnamedAuthority') }) + (t.intact ? '' : vt('timestampBad'))}{' '}
                <span className={`verify-badge ${t.coversPrevious ? 'is-good' : 'is-bad'}`}>
                  {vt(!t.coversPrevious ? 'coversNothing' : i === 0 ? 'coversSignature' : 'coversPreviousTimestamp')}
                </span>
              </li>
            ))}
          </ol>
        </div>
      )}
      {result.signatures.map((s, i) => (
        <div className="verify-card" key={i} data-testid="verify-signature">
          <h2>
            {vt(s.kind === 'document-timestamp' ? 'documentTimestamp' : 'signature', { n: i + 1 })}{' '}
            <span className={`verify-badge ${badge(s).good ? 'is-good' : 'is-bad'}`}>{badge(s).text}</span>
          </h2>
          <dl className="verify-facts">
            {s.problem && (
              <>
                <dt>{vt('problem')}</dt>
                <dd>{s.problem}</dd>
              </>
            )}
            {s.intact && s.updatesAfter !== 'none' && (
              <>
                <dt>{vt('afterIt')}</dt>
                <dd data-testid="verify-after">{vt(AFTER_WORDS[s.updatesAfter])}</dd>
              </>
            )}
            <dt>{vt('form')}</dt>
            <dd>{s.subFilter === 'ETSI.CAdES.detached' ? 'PAdES (ETSI.CAdES.detached)' : s.kind === 'document-timestamp' ? vt('rfc3161') : (s.subFilter ?? '—')}</dd>
            {s.level && (
              <>
                <dt>{vt('level')}</dt>
                <dd data-testid="verify-level">{vt(LEVEL_WORDS[s.level])}</dd>
              </>
            )}
            {s.kind === 'signature' && (
              <>
                <dt>{vt('signed')}</dt>
                <dd>{when(s.signedAt)}</dd>
              </>
            )}
            <dt>{vt(s.kind === 'document-timestamp' ? 'timestamped' : 'timestamp')}</dt>
            <dd>{s.timestamp ? vt('timestampBy', { when: when(s.timestamp.time), authority: s.timestamp.authority ?? vt('unnamedAuthority') }) + (s.timestamp.intact ? '' : vt('timestampBad')) : vt('none')}</dd>
            {s.certificate && (
              <>
                <dt>{vt('certificate')}</dt>
                <dd>{s.certificate.subject}</dd>
                <dt>{vt('issuedBy')}</dt>
                <dd>{issuerText(s)}</dd>
                <dt>{vt('valid')}</dt>
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
