import type { Api } from '../page/api.js'
import type { SignLaunch } from '../page/boot.js'
import { useLanguage } from '../i18n/index.js'
import { AccessGate } from './AuthSteps.js'
import { ProofPromptDialog, useProofPrompt } from './ProofPrompt.js'
import { DoneScreen, FailureScreen, Loading, RejectedScreen, StateScreen } from './Screens.js'
import { SignDocument } from './SignDocument.js'
import type { SigningSession } from './session.js'
import { useSigningOutcome, type Outcome } from './useSigningOutcome.js'
import { useSigningView, useViewAnnouncements } from './useSigningView.js'

/**
 * The signing page: loads the recipient's session and shows the screen of its state, tells
 * the parent (embeds only) what happens, and redirects when the sender asked for it.
 */
export function SignApp({
  launch,
  api,
  first,
  multi,
}: {
  launch: SignLaunch
  api: Api
  first: Promise<SigningSession>
  /** One document of a multi-sign frame: its list announces readiness and never redirects; outcomes go to it. */
  multi?: { onOutcome: (o: Outcome) => void }
}) {
  // The whole page is said again in the language the signer picks.
  useLanguage()
  const { view, setView, load } = useSigningView(api, launch, first)
  const { prove, asking } = useProofPrompt(api, launch)
  useViewAnnouncements(view, api, !!multi)
  const { completed, rejected } = useSigningOutcome(api, launch, multi, setView)

  switch (view.kind) {
    case 'loading':
      return <Loading />
    case 'failure':
      return <FailureScreen failure={view.failure} onRetry={load} />
    case 'auth':
      return <AccessGate api={api} info={view.info} onPassed={load} />
    case 'session':
      return view.session.state === 'READY' ? (
        <>
          <SignDocument
            api={api}
            session={view.session}
            options={launch.options}
            externalId={launch.externalId}
            prove={prove}
            onCompleted={(r) => completed(view.session, r)}
            onRejected={(reason) => rejected(view.session, reason)}
            onStale={load}
          />
          <ProofPromptDialog api={api} asking={asking} />
        </>
      ) : (
        <StateScreen api={api} session={view.session} />
      )
    case 'done':
      return <DoneScreen api={view.api} session={view.session} result={view.result} redirectUrl={view.redirectUrl} />
    case 'rejected':
      return <RejectedScreen session={view.session} reason={view.reason} />
  }
}
