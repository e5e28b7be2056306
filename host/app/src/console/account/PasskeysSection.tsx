import { useState, type FormEvent } from 'react'
import type { Passkey } from '../../../../shared/console-contract.js'
import { ConfirmDialog } from '../ConfirmDialog.js'
import { consoleApi } from '../api.js'
import { ct, formatDateTime } from '../i18n/index.js'
import { passkeysSupported, registerPasskey } from './passkey.js'
import { ErrorAlert, Field, useAction } from './parts.js'
import { Section } from './Section.js'


/** The account's passkeys: add one (named), rename, remove. */
export function PasskeysSection({ passkeys, onChanged }: { passkeys: Passkey[]; onChanged: () => Promise<void> }) {
  const [name, setName] = useState('')
  const [editing, setEditing] = useState<{ id: string; name: string } | null>(null)
  /** The passkey a removal is asked about. */
  const [removing, setRemoving] = useState<Passkey | null>(null)
  const { busy, error, run } = useAction()
  const supported = passkeysSupported()

  const add = (e: FormEvent) => {
    e.preventDefault()
    void run(async () => {
      await registerPasskey(name)
      setName('')
      await onChanged()
    })
  }
  const rename = (e: FormEvent) => {
    e.preventDefault()
    if (!editing) return
    void run(async () => {
      await consoleApi(`/account/passkeys/${encodeURIComponent(editing.id)}`, { method: 'PATCH', body: { name: editing.name } })
      setEditing(null)
      await onChanged()
    })
  }
  const remove = (p: Passkey) => {
    setRemoving(null)
    void run(async () => {
      await consoleApi(`/account/passkeys/${encodeURIComponent(p.id)}`, { method: 'DELETE' })
      await onChanged()
    })
  }

  return (
    <Section id="passkeys-title" title={ct('account.passkeys.title')} intro={ct('account.passkeys.intro')}>
      <ErrorAlert error={error} />
      {removing && (
        <ConfirmDialog
          title={ct('account.passkeys.confirmRemove', { name: removing.name })}
          confirmLabel={ct('account.passkeys.remove')}
          danger
          busy={busy}
          onCancel={() => setRemoving(null)}
          onConfirm={() => remove(removing)}
        >
          <p>{ct('account.passkeys.removeBody')}</p>
        </ConfirmDialog>
      )}
      {passkeys.length === 0 ? (
        <p className="empty">{ct('account.passkeys.none')}</p>
      ) : (
        <ul className="account-list">
          {passkeys.map((p) => (
            <li key={p.id}>
              {editing?.id === p.id ? (
                <form className="account-inline" onSubmit={rename}>
                  <Field label={ct('account.passkeys.name')} value={editing.name} onChange={(v) => setEditing({ id: p.id, name: v })} autoFocus required />
                  <button className="btn btn-primary btn-sm" type="submit" disabled={busy}>
                    {ct('account.save')}
                  </button>
                  <button className="btn btn-secondary btn-sm" type="button" onClick={() => setEditing(null)}>
                    {ct('account.cancel')}
                  </button>
                </form>
              ) : (
                <>
                  <div>
                    <strong>{p.name}</strong>
                    <div className="muted small">
                      {ct('account.passkeys.added', { date: formatDateTime(p.createdAt) })} ·{' '}
                      {p.lastUsedAt ? ct('account.passkeys.used', { date: formatDateTime(p.lastUsedAt) }) : ct('account.passkeys.neverUsed')}
                    </div>
                  </div>
                  <div className="account-actions">
                    <button className="btn btn-secondary btn-sm" type="button" onClick={() => setEditing({ id: p.id, name: p.name })} aria-label={ct('account.passkeys.renameOne', { name: p.name })}>
                      {ct('account.passkeys.rename')}
                    </button>
                    <button className="btn btn-danger-outline btn-sm" type="button" disabled={busy} onClick={() => setRemoving(p)} aria-label={ct('account.passkeys.removeOne', { name: p.name })}>
                      {ct('account.passkeys.remove')}
                    </button>
                  </div>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {supported ? (
        <form className="account-inline" onSubmit={add}>
          <Field label={ct('account.passkeys.newName')} value={name} onChange={setName} />
          <button className="btn btn-primary" type="submit" disabled={busy}>
            {ct('account.passkeys.add')}
          </button>
        </form>
      ) : (
        <p className="muted">{ct('account.passkeys.unsupported')}</p>
      )}
    </Section>
  )
}
