import { useEffect, useRef, useState } from 'react'
import { isRole, moveInList, newKey, recipientProblem, removeRecipient, type Draft, type DraftRecipient } from './draft/model.js'
import { t, type MessageKey } from '../i18n/index.js'
import { RECIPIENT_ROLES } from '../page/types.js'
import { recipientColor, type StepProps } from './steps.js'
import { Icon } from '../page/icons.js'

export function RecipientsStep({ features, draft, setDraft, problems }: StepProps) {
  const allowed = features.recipients
  const sequential = draft.settings.signingOrder === 'SEQUENTIAL'
  const [focusKey, setFocusKey] = useState<string | null>(null)
  const showAllErrors = problems.some((p) => p.step === 'recipients')

  function add() {
    const r: DraftRecipient = { key: newKey('r'), id: null, name: '', email: '', role: 'SIGNER', signingOrder: null, accessAuth: [], actionAuth: [] }
    setDraft((d) => ({ ...d, recipients: [...d.recipients, r] }))
    setFocusKey(r.key)
  }
  const update = (key: string, patch: Partial<DraftRecipient>) =>
    setDraft((d) => ({ ...d, recipients: d.recipients.map((r) => (r.key === key ? { ...r, ...patch } : r)) }))
  const setSettings = (patch: Partial<StepProps['draft']['settings']>) => setDraft((d) => ({ ...d, settings: { ...d.settings, ...patch } }))

  return (
    <section className="stack">
      <p className="intro">{t('recipients.intro')}</p>
      {allowed.signingOrder && (
        <fieldset className="card card-pad">
          <legend className="label">{t('recipients.order')}</legend>
          <div className="choice-row">
            {(['PARALLEL', 'SEQUENTIAL'] as const).map((value) => (
              <label key={value} className="choice">
                <input type="radio" name="signing-order" checked={draft.settings.signingOrder === value} onChange={() => setSettings({ signingOrder: value })} />
                {t(value === 'PARALLEL' ? 'recipients.parallel' : 'recipients.sequential')}
              </label>
            ))}
          </div>
          {sequential && allowed.dictateNextSigner && (
            <label className="choice">
              <input type="checkbox" checked={draft.settings.allowDictateNextSigner} onChange={(e) => setSettings({ allowDictateNextSigner: e.target.checked })} />
              {t('recipients.dictate')}
            </label>
          )}
        </fieldset>
      )}
      {allowed.auth && (
        <fieldset className="card card-pad">
          <legend className="label">{t('recipients.everyone')}</legend>
          <div className="choice-row">
            <AuthSelect
              id="envelope-access"
              label={t('recipients.accessAuth')}
              value={draft.auth.globalAccessAuth}
              methods={ACCESS}
              onChange={(globalAccessAuth) => setDraft((d) => ({ ...d, auth: { ...d.auth, globalAccessAuth } }))}
            />
            <AuthSelect
              id="envelope-action"
              label={t('recipients.actionAuth')}
              value={draft.auth.globalActionAuth}
              methods={ACTION}
              onChange={(globalActionAuth) => setDraft((d) => ({ ...d, auth: { ...d.auth, globalActionAuth } }))}
            />
          </div>
          <p className="muted small">{t('recipients.everyoneHint')}</p>
        </fieldset>
      )}

      {draft.recipients.length === 0 ? (
        <p className="empty">{t('recipients.empty')}</p>
      ) : (
        <ol className="recipient-list">
          {draft.recipients.map((r, n) => (
            <RecipientRow
              key={r.key}
              recipient={r}
              index={n}
              count={draft.recipients.length}
              sequential={sequential}
              reorder={sequential && allowed.signingOrder}
              roles={allowed.roles}
              type={draft.type}
              auth={allowed.auth}
              autoFocus={focusKey === r.key}
              forceErrors={showAllErrors}
              onChange={(patch) => update(r.key, patch)}
              onMove={(to) => setDraft((d) => ({ ...d, recipients: moveInList(d.recipients, n, to) }))}
              onRemove={() => setDraft((d) => removeRecipient(d, r.key))}
            />
          ))}
        </ol>
      )}
      <div>
        <button type="button" className="btn btn-secondary" onClick={add}>
          <Icon name="plus" />
          {t('recipients.add')}
        </button>
      </div>
    </section>
  )
}

function RecipientRow(props: {
  recipient: DraftRecipient
  index: number
  count: number
  sequential: boolean
  /** The signing order can be changed by moving the recipient. */
  reorder: boolean
  /** The roles the user may choose (the recipient's own is always shown). */
  roles: readonly DraftRecipient['role'][]
  /** A template's recipient may be a role: a name and no address. */
  type: Draft['type']
  /** The recipient's verification can be chosen. */
  auth: boolean
  autoFocus: boolean
  forceErrors: boolean
  onChange: (patch: Partial<DraftRecipient>) => void
  onMove: (to: number) => void
  onRemove: () => void
}) {
  const { recipient: r, index: n } = props
  const [touched, setTouched] = useState(false)
  const nameRef = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (props.autoFocus) nameRef.current?.focus()
  }, [props.autoFocus])
  const problem = touched || props.forceErrors ? recipientProblem(props.type, r) : null
  const emailInvalid = problem === 'problem.email'
  const template = props.type === 'TEMPLATE'
  const id = (what: string) => `recipient-${r.key}-${what}`
  return (
    <li className="recipient-row card" data-testid="recipient-row" style={{ ['--c' as string]: recipientColor(n) }}>
      <span className="recipient-badge" aria-hidden="true">
        {props.sequential ? n + 1 : (r.name || r.email || '?').trim().charAt(0).toUpperCase() || '?'}
      </span>
      <div className="recipient-fields" role="group" aria-label={t('recipients.label', { n: n + 1 })}>
        <div className="form-field">
          <label className="label" htmlFor={id('name')}>
            {t(isRole(props.type, r) ? 'recipients.roleName' : 'recipients.name')}
          </label>
          <input
            ref={nameRef}
            id={id('name')}
            className="input"
            value={r.name}
            autoComplete="off"
            aria-invalid={problem === 'problem.roleName' || undefined}
            aria-describedby={problem === 'problem.roleName' ? id('name-error') : undefined}
            onChange={(e) => props.onChange({ name: e.target.value })}
            onBlur={() => template && setTouched(true)}
          />
          {problem === 'problem.roleName' && (
            <p id={id('name-error')} className="field-error">
              {t('recipients.roleNeedsName')}
            </p>
          )}
        </div>
        <div className="form-field">
          <label className="label" htmlFor={id('email')}>
            {t('recipients.email')}
          </label>
          <input
            id={id('email')}
            className="input"
            type="email"
            value={r.email}
            autoComplete="off"
            aria-invalid={emailInvalid || undefined}
            aria-describedby={[emailInvalid && id('email-error'), template && id('email-hint')].filter(Boolean).join(' ') || undefined}
            onChange={(e) => props.onChange({ email: e.target.value })}
            onBlur={() => setTouched(true)}
          />
          {emailInvalid && (
            <p id={id('email-error')} className="field-error">
              {t('recipients.invalidEmail')}
            </p>
          )}
          {template && (
            <p id={id('email-hint')} className="muted small">
              {t('recipients.roleHint')}
            </p>
          )}
        </div>
        <div className="form-field">
          <label className="label" htmlFor={id('role')}>
            {t('recipients.role')}
          </label>
          <select id={id('role')} className="input" value={r.role} onChange={(e) => props.onChange({ role: e.target.value as DraftRecipient['role'] })}>
            {RECIPIENT_ROLES.filter((role) => role === r.role || props.roles.includes(role)).map((role) => (
              <option key={role} value={role}>
                {t(`role.${role}`)}
              </option>
            ))}
          </select>
        </div>
        {props.auth && (
          <>
            <AuthSelect id={id('access')} label={t('recipients.accessAuth')} value={r.accessAuth} methods={ACCESS} none={t('recipients.auth.inherit')} onChange={(accessAuth) => props.onChange({ accessAuth })} />
            {r.role !== 'CC' && r.role !== 'VIEWER' && (
              <AuthSelect
                id={id('action')}
                label={t('recipients.actionAuth')}
                value={r.actionAuth}
                methods={[...ACTION, 'EXPLICIT_NONE']}
                none={t('recipients.auth.inherit')}
                onChange={(actionAuth) => props.onChange({ actionAuth })}
              />
            )}
          </>
        )}
      </div>
      <div className="row-actions">
        {props.reorder && (
          <>
            <button type="button" className="btn-icon" aria-label={t('recipients.moveUp', { n: n + 1 })} disabled={n === 0} onClick={() => props.onMove(n - 1)}>
              <Icon name="arrowUp" />
            </button>
            <button type="button" className="btn-icon" aria-label={t('recipients.moveDown', { n: n + 1 })} disabled={n === props.count - 1} onClick={() => props.onMove(n + 1)}>
              <Icon name="arrowDown" />
            </button>
          </>
        )}
        <button type="button" className="btn-icon btn-danger" aria-label={t('recipients.remove', { n: n + 1 })} onClick={props.onRemove}>
          <Icon name="trash" />
        </button>
      </div>
    </li>
  )
}

const ACCESS = ['TWO_FACTOR_AUTH', 'ACCOUNT'] as const
const ACTION = ['PASSWORD', 'TWO_FACTOR_AUTH', 'PASSKEY', 'ACCOUNT'] as const

/** One method (or none) of a recipient's access or action list; a list set elsewhere shows its first. */
function AuthSelect(props: { id: string; label: string; value: string[]; methods: readonly string[]; none?: string; onChange: (v: string[]) => void }) {
  // What a method asks of someone without an account, said before the document is sent.
  const method = props.value[0]
  const hint = method === 'PASSWORD' || method === 'ACCOUNT' ? t('recipients.auth.accountHint') : method === 'PASSKEY' ? t('recipients.auth.passkeyHint') : null
  return (
    <div className="form-field">
      <label className="label" htmlFor={props.id}>
        {props.label}
      </label>
      <select id={props.id} className="input" value={method ?? ''} aria-describedby={hint ? `${props.id}-hint` : undefined} onChange={(e) => props.onChange(e.target.value ? [e.target.value] : [])}>
        <option value="">{props.none ?? t('recipients.auth.none')}</option>
        {props.methods.map((m) => (
          <option key={m} value={m}>
            {t(`recipients.auth.${m}` as MessageKey)}
          </option>
        ))}
      </select>
      {hint && (
        <p id={`${props.id}-hint`} className="muted small" data-testid="auth-hint">
          {hint}
        </p>
      )}
    </div>
  )
}
