import { useState } from 'react'
import type { SigningResult, SignOptions } from '../../../../src/protocol/index.js'
import type { Api } from '../page/api.js'
import type { Prove } from './auth-info.js'
import { useDocumentControls } from './commands.js'
import { t, type MessageKey } from '../i18n/index.js'
import { CompleteDialog } from './CompleteDialog.js'
import { ConsentAgreed, ConsentNotice, useConsent, WithdrawDialog } from './ConsentNotice.js'
import { FieldDialog } from './FieldDialog.js'
import { fieldName } from './FieldOverlay.js'
import { RejectDialog } from './RejectDialog.js'
import { LanguagePicker } from './LanguagePicker.js'
import { allowedMethods, SignatureDialog } from './SignatureDialog.js'
import { SignBar } from './SignBar.js'
import { SignHeader } from './SignHeader.js'
import { SignPages } from './SignPages.js'
import { canReject, hasAction, imageKind, isFilled, knownSigner, requiredOf, type SigningSession } from './session.js'
import { useSigningFields } from './useSigningFields.js'

/** The READY screen: the document with the recipient's fields, the guide and the action. */
export function SignDocument(props: {
  api: Api
  session: SigningSession
  options: SignOptions
  /** A direct link embed's external id for the document it makes. */
  externalId?: string | undefined
  onCompleted: (result: SigningResult) => void
  onRejected: (reason: string) => void
  /** The state changed on the service (someone else acted): load it again. */
  onStale: () => void
  /** Signs or approves with the proof the recipient's authentication asks for (sign/auth-info.ts). */
  prove?: Prove
}) {
  const { api, session, options } = props
  const { envelope, recipient } = session
  const role = recipient.role
  // Zoom of the pages (a phone shows an A4 page's text at a few pixels): 100% fits the width.
  const [zoom, setZoom] = useState(1)
  const action = hasAction(role)
  // Consent to sign electronically comes before the first action: until then the fields stay closed.
  const { consent, agree, error: consentError, busy: consentBusy } = useConsent(api, !!session.direct, action)
  const agreed = consent.status === 'agreed'
  const fields = useSigningFields(session, options, agreed)
  const { values, setValue, open, setOpen, openFieldObj, next, goTo } = fields
  const close = () => setOpen(null)

  // The parent's nextField and setZoom commands do what the page's own buttons do.
  useDocumentControls({
    nextField: () => next && (goTo(next), { id: next.id, type: next.type, label: fieldName(next), page: next.page }),
    setZoom,
  })

  return (
    <div className="sign" data-testid="sign-document" data-role={role}>
      <SignHeader session={session} options={options} zoom={zoom} setZoom={setZoom} rejectable={canReject(session, options)} onReject={() => setOpen({ kind: 'reject' })} />

      <main className="sign-main" style={{ ['--zoom' as string]: zoom }} data-zoomed={zoom > 1 || undefined}>
        <div className="sign-intro-row">
          <p className={'sign-intro' + (role === 'CC' ? ' sign-intro-note' : '')}>{t(`sign.intro.${role}` as MessageKey)}</p>
          <LanguagePicker />
        </div>
        {action && <ConsentNotice consent={consent} onAgree={agree} error={consentError} busy={consentBusy} />}
        {action && agreed && !session.direct && <ConsentAgreed onWithdraw={() => setOpen({ kind: 'withdraw' })} />}
        <SignPages api={api} session={session} options={options} action={action} ordered={fields.ordered} values={values} decided={fields.decided} progress={fields.progress} currentId={fields.currentId} refs={fields.refs} onOpen={fields.openField} />
      </main>

      {action && <SignBar role={role} progress={fields.progress} next={next} onNext={goTo} onAction={fields.onAction} notice={fields.notice} news={fields.news} />}

      {open?.kind === 'field' && openFieldObj && (
        <FieldDialog
          field={openFieldObj}
          value={values[openFieldObj.id]}
          required={requiredOf(openFieldObj, fields.decided)}
          onClose={close}
          onSave={(v) => {
            setValue(openFieldObj.id, v)
            setOpen(null)
          }}
        />
      )}
      {open?.kind === 'signature' && openFieldObj && (
        <SignatureDialog
          kind={imageKind(openFieldObj)}
          methods={allowedMethods(envelope.documentMeta)}
          name={knownSigner(session, values, options).name}
          size={open.size}
          filled={isFilled(openFieldObj, values[openFieldObj.id])}
          onClose={close}
          onRemove={() => {
            setValue(openFieldObj.id, undefined)
            setOpen(null)
          }}
          onAdopt={(png) => fields.adoptImage(openFieldObj, png)}
        />
      )}
      {open?.kind === 'complete' && (
        <CompleteDialog api={api} session={session} values={values} options={options} externalId={props.externalId} consent={consent.status === 'agreed' ? consent.given : undefined} prove={props.prove} onClose={close} onCompleted={props.onCompleted} onStale={props.onStale} />
      )}
      {open?.kind === 'withdraw' && <WithdrawDialog api={api} title={envelope.title} onClose={close} onRejected={props.onRejected} onStale={props.onStale} />}
      {open?.kind === 'reject' && <RejectDialog api={api} title={envelope.title} onClose={close} onRejected={props.onRejected} onStale={props.onStale} />}
    </div>
  )
}
