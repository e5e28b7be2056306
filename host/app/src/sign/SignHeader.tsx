import type { Dispatch, SetStateAction } from 'react'
import type { SignOptions } from '../../../../src/protocol/index.js'
import { t, type MessageKey } from '../i18n/index.js'
import { signerIdentity, type SigningSession } from './session.js'

/** The READY screen's top: the sender's logo, the document and who signs it, the zoom and the way to reject. */
export function SignHeader(props: { session: SigningSession; options: SignOptions; zoom: number; setZoom: Dispatch<SetStateAction<number>>; rejectable: boolean; onReject: () => void }) {
  const { session } = props
  const role = session.recipient.role
  const who = signerIdentity(session, props.options)
  return (
    <header className="sign-top">
      {session.branding?.logoUrl && <img className="sign-logo" src={session.branding.logoUrl} alt={session.branding.name} data-testid="sign-logo" />}
      <div className="sign-top-text">
        <h1 className="sign-title">{session.envelope.title}</h1>
        <p className="muted small sign-who">
          {session.direct && !(who.name && who.email) ? t('sign.direct.intro') : t(`sign.as.${role}` as MessageKey, { name: who.name || who.email, email: who.email })}
        </p>
      </div>
      <div className="sign-top-actions">
        <ZoomControls zoom={props.zoom} setZoom={props.setZoom} />
        {props.rejectable && (
          <button type="button" className="btn btn-sm btn-danger-outline" onClick={props.onReject} data-testid="reject">
            {t('sign.reject.button')}
          </button>
        )}
      </div>
    </header>
  )
}

/** Zoom of the pages in steps of 50%, from 100% (the page fits the width) to 300%. */
function ZoomControls({ zoom, setZoom }: { zoom: number; setZoom: Dispatch<SetStateAction<number>> }) {
  return (
    <div className="zoom" role="group" aria-label={t('sign.zoomLevel', { percent: Math.round(zoom * 100) })}>
      <button type="button" className="btn btn-sm btn-icon-only" aria-label={t('sign.zoomOut')} disabled={zoom <= 1} onClick={() => setZoom((z) => Math.max(1, z - 0.5))}>
        −
      </button>
      <span className="zoom-level" aria-hidden="true">
        {Math.round(zoom * 100)}%
      </span>
      <button type="button" className="btn btn-sm btn-icon-only" aria-label={t('sign.zoomIn')} disabled={zoom >= 3} onClick={() => setZoom((z) => Math.min(3, z + 0.5))}>
        +
      </button>
    </div>
  )
}
