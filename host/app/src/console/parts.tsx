import { useCallback, useId, useState, type ReactNode } from 'react'
import { ApiFailure } from './api.js'
import { ct, type ConsoleKey } from './i18n/index.js'

/** What every console screen shares: an error line, a notice, one action at a time. */

export function ErrorAlert({ error }: { error: string | null }) {
  return error ? (
    <p className="alert alert-error" role="alert">
      {error}
    </p>
  ) : null
}

export function Notice({ children }: { children: ReactNode }) {
  return (
    <p className="alert" role="status">
      {children}
    </p>
  )
}

/**
 * A failure's message in the reader's language: the console's own words for the code (the
 * account's, then every area's, i18n/errors), else the server's message for a code it does not
 * know. `{detail}` in a sentence is the server's message (which field, which address).
 */
export function messageOf(err: unknown): string {
  if (err instanceof ApiFailure) {
    for (const key of [`account.error.${err.code}`, `error.${err.code}`]) {
      const own = ct(key as ConsoleKey, { detail: err.message })
      if (own !== key) return own
    }
    return err.message
  }
  // The browser's WebAuthn dialog closed or refused: no need to show its technical text.
  if (err instanceof Error && (err.name === 'NotAllowedError' || err.name === 'AbortError')) return ct('account.error.passkeyCancelled')
  return err instanceof Error ? err.message : String(err)
}

/** Runs one action at a time: `busy` while it runs, its failure's message in `error`. */
export function useAction() {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const run = useCallback(async (action: () => Promise<void>) => {
    setBusy(true)
    setError(null)
    try {
      await action()
    } catch (err) {
      setError(messageOf(err))
    } finally {
      setBusy(false)
    }
  }, [])
  return { busy, error, setError, run }
}

/** A labelled input; its hint (outside the label, so not part of the name) describes it. */
export function Field(props: {
  label: string
  type?: string
  value: string
  onChange: (v: string) => void
  autoComplete?: string
  required?: boolean
  hint?: string
  inputMode?: 'numeric' | 'text'
  autoFocus?: boolean
  minLength?: number
  readOnly?: boolean
  /** Another element that describes the field too (why it is read-only). */
  describedBy?: string
}) {
  const id = useId()
  const describedBy = [props.hint && `${id}-hint`, props.describedBy].filter(Boolean).join(' ')
  return (
    <div className="form-field">
      <label className="label" htmlFor={id}>
        {props.label}
      </label>
      <input
        id={id}
        className="input"
        type={props.type ?? 'text'}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        autoComplete={props.autoComplete}
        required={props.required}
        inputMode={props.inputMode}
        autoFocus={props.autoFocus}
        minLength={props.minLength}
        readOnly={props.readOnly}
        aria-describedby={describedBy || undefined}
      />
      {props.hint && (
        <span className="muted small" id={`${id}-hint`}>
          {props.hint}
        </span>
      )}
    </div>
  )
}

/** The console's language as the mail job names it. */
export { consoleLanguage as mailLanguage } from './i18n/index.js'

/** A console table's header row: its columns, and an unlabelled actions column read out to screen readers. */
export function TableHead({ columns, actions = false }: { columns: string[]; actions?: boolean }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th key={c} scope="col">
            {c}
          </th>
        ))}
        {actions && (
          <th scope="col">
            <span className="sr-only">{ct('team.actions')}</span>
          </th>
        )}
      </tr>
    </thead>
  )
}

/** A person as the console lists them: the name, with the address beneath (or the address alone). */
export function PersonCell({ name, email }: { name: string; email: string }) {
  return (
    <td>
      <strong>{name || email}</strong>
      {name && <div className="muted small">{email}</div>}
    </td>
  )
}

/** Previous / page n of m / next, for a paged list. */
export function Pager({ page, pages, label, onPage }: { page: number; pages: number; label: string; onPage: (page: number) => void }) {
  if (pages <= 1) return null
  return (
    <nav className="team-actions" aria-label={label}>
      <button className="btn btn-sm btn-secondary" type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {ct('team.previous')}
      </button>
      <span className="muted small">{ct('team.pageOf', { page, pages })}</span>
      <button className="btn btn-sm btn-secondary" type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {ct('team.next')}
      </button>
    </nav>
  )
}

/** A new password: the length the service asks for, said beside the field, and what password managers need to offer one. */
export function NewPasswordField({ label, value, onChange, autoFocus }: { label: string; value: string; onChange: (v: string) => void; autoFocus?: boolean }) {
  return <Field label={label} type="password" value={value} onChange={onChange} autoComplete="new-password" required minLength={10} hint={ct('account.passwordHint')} {...(autoFocus && { autoFocus })} />
}
