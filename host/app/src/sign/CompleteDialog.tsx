import { useId, useState } from 'react'
import type { SigningResult, SignOptions } from '../../../../src/protocol/index.js'
import { ApiError, type Api } from '../page/api.js'
import { t, type MessageKey } from '../i18n/index.js'
import { announceFailure, type Prove } from './auth-info.js'
import type { ConsentGiven } from './ConsentNotice.js'
import { Dialog } from './Dialog.js'
import { DirectRoles, roleProblem, type RolePeople } from './DirectRoles.js'
import { apiMessage, STALE } from './refusals.js'
import { completeRequest, knownSigner, validEmail, type SigningSession, type Values } from './session.js'

/** Confirms completing: a direct link's visitor says who they are, a sequential envelope may name the next signer. */
export function CompleteDialog(props: {
  api: Api
  session: SigningSession
  values: Values
  options: SignOptions
  externalId?: string | undefined
  /** A direct link's visitor's consent to sign electronically (ConsentNotice.tsx), sent with the signature. */
  consent?: ConsentGiven | undefined
  prove?: Prove | undefined
  onClose: () => void
  onCompleted: (r: SigningResult) => void
  onStale: () => void
}) {
  const { session } = props
  const role = session.recipient.role
  const [next, setNext] = useState(session.nextSigner ? { name: session.nextSigner.name, email: session.nextSigner.email } : null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [emailError, setEmailError] = useState(false)
  // A direct link's visitor says who they are: the document is made out to them.
  const [signer, setSigner] = useState(() => (session.direct ? knownSigner(session, props.values, props.options) : null))
  const [signerError, setSignerError] = useState<'name' | 'email' | null>(null)
  // The people of the template's other roles, named by the visitor.
  const roles = session.direct ? (session.roles ?? []) : []
  const [people, setPeople] = useState<RolePeople>({})
  const [peopleProblem, setPeopleProblem] = useState<ReturnType<typeof roleProblem>>(null)
  const ids = useId()

  async function submit() {
    if (busy) return
    if (signer && (!signer.name.trim() || !validEmail(signer.email))) {
      const which = signer.name.trim() ? 'email' : 'name'
      setSignerError(which)
      document.getElementById(`${ids}-signer-${which}`)?.focus()
      return
    }
    const problem = roleProblem(roles, people, validEmail)
    if (problem) {
      setPeopleProblem(problem)
      document.getElementById(`${ids}-role-${problem.id}-${problem.key}`)?.focus()
      return
    }
    if (next && !validEmail(next.email)) {
      setEmailError(true)
      document.getElementById(`${ids}-next-email`)?.focus()
      return
    }
    setBusy(true)
    setError(null)
    try {
      const request = completeRequest(session, props.values, next ?? undefined)
      const named = roles.map((r) => ({ id: r.id, name: people[r.id]!.name.trim(), email: people[r.id]!.email.trim() }))
      const body = signer
        ? { ...request, signer: { name: signer.name.trim(), email: signer.email.trim() }, ...(named.length ? { roles: named } : {}), ...(props.externalId ? { externalId: props.externalId } : {}), ...(props.consent ? { consent: props.consent } : {}) }
        : request
      // A wrong password or code is told in the dialog that asked for it, which stays open.
      const act = async (proofs: object | undefined) => props.onCompleted(await props.api.post<SigningResult>('/complete', { ...body, ...proofs }))
      if (!(await (props.prove ? props.prove(act, signer?.email.trim()) : act(undefined).then(() => true)))) setBusy(false)
    } catch (e) {
      setBusy(false)
      if (e instanceof ApiError && STALE.has(e.code)) return props.onStale()
      announceFailure(e)
      setError(t('sign.error.completeFailed', { message: apiMessage(e) }))
    }
  }

  return (
    <Dialog
      title={t(`sign.confirm.title.${role}` as MessageKey)}
      description={t(`sign.confirm.body.${role}` as MessageKey, { title: session.envelope.title })}
      onClose={() => !busy && props.onClose()}
      testId="complete-dialog"
      initialFocus={next || signer ? undefined : '[data-testid="confirm-complete"]'}
      footer={
        <>
          <button type="button" className="btn" onClick={props.onClose} disabled={busy}>
            {t('sign.cancel')}
          </button>
          <button type="button" className="btn btn-primary" onClick={submit} disabled={busy} data-testid="confirm-complete">
            {busy && <span className="spinner spinner-sm" aria-hidden="true" />}
            {t(`sign.action.${role}` as MessageKey)}
          </button>
        </>
      }
    >
      {signer && (
        <SignerFields
          ids={ids}
          signer={signer}
          error={signerError}
          onChange={(changed) => {
            setSigner(changed)
            setSignerError(null)
          }}
        />
      )}
      {roles.length > 0 && (
        <DirectRoles
          ids={ids}
          roles={roles}
          people={people}
          problem={peopleProblem}
          onChange={(p) => {
            setPeople(p)
            setPeopleProblem(null)
          }}
        />
      )}
      {next && (
        <NextSignerFields
          ids={ids}
          next={next}
          emailError={emailError}
          onChange={(changed, email) => {
            setNext(changed)
            if (email) setEmailError(false)
          }}
        />
      )}
      <p className="field-error" role="alert" data-testid="complete-error">
        {error}
      </p>
    </Dialog>
  )
}

type Signer = NonNullable<ReturnType<typeof knownSigner>>

/** A direct link's visitor: their name and address (either given by the link is read-only). */
function SignerFields(props: { ids: string; signer: Signer; error: 'name' | 'email' | null; onChange: (signer: Signer) => void }) {
  const { ids, signer } = props
  return (
    <fieldset className="next-signer stack-sm" data-testid="direct-signer">
      <legend className="label">{t('sign.direct.you')}</legend>
      <p className="muted small">{t('sign.direct.help')}</p>
      {(['name', 'email'] as const).map((key) => (
        <div className="form-field" key={key}>
          <label className="label-sm" htmlFor={`${ids}-signer-${key}`}>
            {t(key === 'name' ? 'recipients.name' : 'recipients.email')}
          </label>
          <input
            id={`${ids}-signer-${key}`}
            className="input"
            type={key === 'email' ? 'email' : 'text'}
            autoComplete={key}
            value={signer[key]}
            readOnly={key === 'name' ? signer.lockName : signer.lockEmail}
            aria-invalid={props.error === key || undefined}
            aria-describedby={`${ids}-signer-${key}-error`}
            onChange={(e) => props.onChange({ ...signer, [key]: e.target.value })}
          />
          <p id={`${ids}-signer-${key}-error`} className="field-error">
            {props.error === key ? t(key === 'email' ? 'recipients.invalidEmail' : 'sign.invalid.required') : ''}
          </p>
        </div>
      ))}
    </fieldset>
  )
}

/** The next signer of a sequential envelope, whom this signer may name. */
function NextSignerFields(props: { ids: string; next: { name: string; email: string }; emailError: boolean; onChange: (next: { name: string; email: string }, email: boolean) => void }) {
  const { ids, next } = props
  return (
    <fieldset className="next-signer stack-sm" data-testid="next-signer">
      <legend className="label">{t('sign.nextSigner.title')}</legend>
      <p className="muted small">{t('sign.nextSigner.help')}</p>
      <div className="form-field">
        <label className="label-sm" htmlFor={`${ids}-next-name`}>
          {t('recipients.name')}
        </label>
        <input id={`${ids}-next-name`} className="input" value={next.name} autoComplete="off" onChange={(e) => props.onChange({ ...next, name: e.target.value }, false)} />
      </div>
      <div className="form-field">
        <label className="label-sm" htmlFor={`${ids}-next-email`}>
          {t('recipients.email')}
        </label>
        <input
          id={`${ids}-next-email`}
          className="input"
          type="email"
          autoComplete="off"
          value={next.email}
          aria-invalid={props.emailError || undefined}
          aria-describedby={`${ids}-next-error`}
          onChange={(e) => props.onChange({ ...next, email: e.target.value }, true)}
        />
        <p id={`${ids}-next-error`} className="field-error">
          {props.emailError ? t('recipients.invalidEmail') : ''}
        </p>
      </div>
    </fieldset>
  )
}
