import { useId } from 'react'
import { ApiFailure, download } from '../api.js'
import { ct } from '../i18n/index.js'
import type { RunAction } from './RecipientsPanel.js'
import type { Envelope } from './types.js'

/**
 * Every file of an envelope: each item's original and signed PDF, the signing certificate, the
 * audit log and the evidence summary (JSON, and signed as a JWS that /verify checks). What does
 * not exist yet (or any more) is a disabled button with the reason beside it; a file purged while
 * the page was open says so in words, and the page reloads to show it (`onPurged`).
 */
export function Downloads({ env, purgedReason, run, onPurged }: { env: Envelope; purgedReason: string | null; run: RunAction; onPurged: () => void }) {
  const signedId = useId()
  const auditId = useId()
  const purgedId = useId()
  const document = env.type === 'DOCUMENT'
  const signedReason = purgedReason
    ? null
    : env.status === 'COMPLETED'
      ? null
      : env.status === 'REJECTED' || env.status === 'CANCELLED'
        ? ct('documents.download.neverSigned')
        : ct('documents.download.signedLater')
  const auditReason = purgedReason || env.status !== 'DRAFT' ? null : ct('documents.download.auditLater')
  const why = (own: string | null, id: string) => (purgedReason ? purgedId : own ? id : undefined)
  const evidenceId = useId()
  const get = (path: string, name: string) =>
    run(() =>
      download(path, name).catch((err: unknown) => {
        if (err instanceof ApiFailure && err.code === 'DOCUMENT_PURGED') onPurged()
        throw err
      }),
    )

  return (
    <section className="card card-pad stack" aria-labelledby="docs-files">
      <h2 id="docs-files">{ct('documents.files')}</h2>
      <ul className="docs-files">
        {env.envelopeItems.map((item) => (
          <li key={item.id}>
            <span>{item.title}</span>
            <span className="team-actions">
              <button
                className="btn btn-sm btn-secondary"
                type="button"
                disabled={!!purgedReason}
                aria-describedby={why(null, '')}
                onClick={() => get(`/envelope/item/${item.id}/download?version=original`, `${item.title}.pdf`)}
              >
                {ct('documents.original')}
              </button>
              {document && (
                <button
                  className={`btn btn-sm ${purgedReason || signedReason ? 'btn-secondary' : 'btn-primary'}`}
                  type="button"
                  disabled={!!purgedReason || !!signedReason}
                  aria-describedby={why(signedReason, signedId)}
                  onClick={() => get(`/envelope/item/${item.id}/download?version=signed`, `${item.title}.pdf`)}
                >
                  {ct('documents.signed')}
                </button>
              )}
            </span>
          </li>
        ))}
      </ul>
      {document && (
        <div className="team-actions">
          <button
            className="btn btn-sm btn-secondary"
            type="button"
            disabled={!!purgedReason || !!signedReason}
            aria-describedby={why(signedReason, signedId)}
            onClick={() => get(`/envelope/${env.id}/certificate/download`, `${env.title} - certificate.pdf`)}
          >
            {ct('documents.certificate')}
          </button>
          <button
            className="btn btn-sm btn-secondary"
            type="button"
            disabled={!!purgedReason || !!auditReason}
            aria-describedby={why(auditReason, auditId)}
            onClick={() => get(`/envelope/${env.id}/audit-log/download`, `${env.title} - audit log.pdf`)}
          >
            {ct('documents.auditPdf')}
          </button>
          {/* The summary outlives the files: a purged document's says so and keeps their hashes. */}
          <button className="btn btn-sm btn-secondary" type="button" aria-describedby={evidenceId} onClick={() => get(`/envelope/${env.id}/evidence`, `${env.title} - evidence.json`)}>
            {ct('documents.evidenceJson')}
          </button>
          <button className="btn btn-sm btn-secondary" type="button" aria-describedby={evidenceId} onClick={() => get(`/envelope/${env.id}/evidence?format=jws`, `${env.title} - evidence.jws`)}>
            {ct('documents.evidenceJws')}
          </button>
        </div>
      )}
      {document && (
        <p className="muted small" id={evidenceId}>
          {ct('documents.evidenceHint')}
        </p>
      )}
      {purgedReason && (
        <p className="muted small" id={purgedId}>
          {purgedReason}
        </p>
      )}
      {document && signedReason && (
        <p className="muted small" id={signedId}>
          {signedReason}
        </p>
      )}
      {document && auditReason && (
        <p className="muted small" id={auditId}>
          {auditReason}
        </p>
      )}
    </section>
  )
}
