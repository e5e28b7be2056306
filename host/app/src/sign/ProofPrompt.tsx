/**
 * What signing needs, asked for when the recipient acts: the action runs with the proofs the
 * dialog collects. A wrong secret is told inside the dialog, which stays open for another try;
 * any other failure closes it and is the action's own. A direct link's visitor proves its
 * recipient's methods for the address they gave.
 */
import { useCallback, useState } from 'react'
import type { Api } from '../page/api.js'
import type { SignLaunch } from '../page/boot.js'
import { isAuthFailure, loadAuthInfo, type AccessProof, type ActionProof, type AuthInfo, type DirectAuthInfo, type Prove } from './auth-info.js'
import { ActionAuthDialog } from './AuthSteps.js'
import { DirectAuthDialog } from './DirectAuthDialog.js'

type Proofs = { auth?: ActionProof; access?: AccessProof }

/** The proofs being asked for: what to run with them, and how to give up. */
export type Asking = { act: (p: Proofs) => Promise<void>; cancel: () => void } & ({ kind: 'recipient'; info: AuthInfo } | { kind: 'direct'; info: DirectAuthInfo; email: string })

/** `prove` for the document's actions, and what it is asking for now (null: nothing). */
export function useProofPrompt(api: Api, launch: SignLaunch) {
  const [asking, setAsking] = useState<Asking | null>(null)
  const prove = useCallback<Prove>(
    async (act, email) => {
      const direct = launch.direct ? await api.get<DirectAuthInfo>('/auth').catch(() => null) : null
      const info = launch.direct ? null : await loadAuthInfo(api).catch(() => null)
      const needed = direct ? direct.access.required.length > 0 || direct.action.required.length > 0 : !!info?.action.required.length
      if (!needed) return act(undefined).then(() => true)
      return new Promise<boolean>((resolve, reject) => {
        const run = async (proofs: Proofs) => {
          try {
            await act(proofs)
          } catch (e) {
            if (isAuthFailure(e)) throw e
            setAsking(null)
            return reject(e)
          }
          setAsking(null)
          resolve(true)
        }
        const cancel = () => (setAsking(null), resolve(false))
        setAsking(direct ? { kind: 'direct', info: direct, email: email ?? '', act: run, cancel } : { kind: 'recipient', info: info!, act: run, cancel })
      })
    },
    [api, launch],
  )
  return { prove, asking }
}

/** The dialog that collects the proofs asked for: the recipient's own, or a direct link's. */
export function ProofPromptDialog({ api, asking }: { api: Api; asking: Asking | null }) {
  return (
    <>
      {asking?.kind === 'recipient' && <ActionAuthDialog api={api} info={asking.info} onProof={(auth) => asking.act({ auth })} onClose={asking.cancel} />}
      {asking?.kind === 'direct' && <DirectAuthDialog api={api} info={asking.info} email={asking.email} onProofs={asking.act} onClose={asking.cancel} />}
    </>
  )
}
