import { useState, type ReactNode } from 'react'
import { ct } from '../i18n/index.js'

/**
 * A credential the service shows this once (a new API token, a new webhook's signing key): what
 * it is (`children`, saying it is shown once), its value, Copy (to the clipboard) and Done, which
 * puts it away for good.
 */
export function ShownOnce(props: { id: string; title: string; value: string; testId: string; children: ReactNode; onDone: () => void }) {
  // The value copied, so a new one shows Copy again.
  const [copied, setCopied] = useState<string | null>(null)
  const copy = async () => {
    await navigator.clipboard.writeText(props.value)
    setCopied(props.value)
  }
  return (
    <section className="card card-pad stack team-secret" aria-labelledby={props.id} role="region">
      <h2 id={props.id}>{props.title}</h2>
      {props.children}
      <code className="team-token" data-testid={props.testId}>
        {props.value}
      </code>
      <div className="team-actions">
        <button className="btn btn-primary" type="button" onClick={() => void copy()}>
          {copied === props.value ? ct('team.tokens.copied') : ct('team.tokens.copy')}
        </button>
        <button className="btn btn-secondary" type="button" onClick={props.onDone}>
          {ct('team.tokens.done')}
        </button>
      </div>
    </section>
  )
}
