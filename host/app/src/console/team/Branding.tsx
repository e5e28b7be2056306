import { useCallback, useEffect, useId, useState, type ChangeEvent, type FormEvent } from 'react'
import type { BrandingChange, TeamBranding } from '../../../../shared/console-contract.js'
import { brandPalette, contrast, normalizeHex } from '../../../../shared/brand-colour.js'
import { consoleApi } from '../api.js'
import { ct } from '../i18n/index.js'
import { atLeast, useMe } from '../me.js'
import { ErrorAlert, Notice, messageOf, useAction } from '../parts.js'
import { BrandingDefaults } from './BrandingDefaults.js'
import { SettingsLayout } from './SettingsLayout.js'
import './branding.css'

/** As the server takes it (host/server/images/logo.ts): checked here first so a wrong file is named at once. */
const MAX_LOGO_BYTES = 256 * 1024
/** The service's own primary colour (page/base.css), shown in the picker while the team has none. */
const SERVICE_PRIMARY = '#3355e0'

/**
 * `/console/settings/branding`: the team's logo and brand colour (signing pages and e-mails), its
 * e-mail sender and defaults, and what a new document starts with (docs/branding.md). Admins
 * change them; every other member sees them read-only, told why.
 */
export function Branding() {
  const { me } = useMe()
  const admin = atLeast(me.team?.role, 'ADMIN')
  const [branding, setBranding] = useState<TeamBranding | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [saved, setSaved] = useState(false)
  const action = useAction()

  const load = useCallback(async () => {
    try {
      setBranding(await consoleApi('/team/branding'))
    } catch (err) {
      setLoadError(messageOf(err))
    }
  }, [])
  useEffect(() => void load(), [load, me.team?.teamId])

  /** Sends a change; the branding as it now is replaces the form's. */
  const save = (run: () => Promise<TeamBranding>) =>
    void action.run(async () => {
      setSaved(false)
      setBranding(await run())
      setSaved(true)
    })
  const change = (body: BrandingChange) => save(() => consoleApi('/team/branding', { body }))

  return (
    <SettingsLayout title={ct('branding.title')}>
      {!admin && <p className="alert" data-testid="branding-read-only">{ct('branding.readOnly')}</p>}
      <ErrorAlert error={loadError ?? action.error} />
      {saved && <Notice>{ct('team.saved')}</Notice>}
      {branding && (
        <>
          <Look branding={branding} admin={admin} busy={action.busy} onLogo={(image) => save(() => consoleApi('/team/branding/logo', { body: { image } }))}
            onRemoveLogo={() => save(() => consoleApi('/team/branding/logo/remove', { body: {} }))} onColor={(brandColor) => change({ brandColor })}
            onRefused={(message) => action.run(async () => Promise.reject(new Error(message)))} />
          <BrandingDefaults key={branding.updatedAt} branding={branding} admin={admin} busy={action.busy} onSave={change} />
        </>
      )}
    </SettingsLayout>
  )
}

function Look(props: {
  branding: TeamBranding
  admin: boolean
  busy: boolean
  onLogo: (dataUrl: string) => void
  onRemoveLogo: () => void
  onColor: (hex: string | null) => void
  onRefused: (message: string) => void
}) {
  const { branding, admin } = props
  const ids = useId()
  const [hex, setHex] = useState(branding.brandColor ?? '')
  useEffect(() => setHex(branding.brandColor ?? ''), [branding.brandColor])
  const colour = hex.trim() ? normalizeHex(hex) : null

  const pick = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0]
    e.target.value = ''
    if (!file) return
    if (file.type !== 'image/png' && file.type !== 'image/jpeg') return props.onRefused(ct('branding.logo.wrongType'))
    if (file.size > MAX_LOGO_BYTES) return props.onRefused(ct('branding.logo.tooLarge'))
    const reader = new FileReader()
    reader.onload = () => props.onLogo(String(reader.result))
    reader.readAsDataURL(file)
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (hex.trim() && !colour) return
    props.onColor(colour)
  }

  return (
    <form className="card card-pad stack" onSubmit={submit} aria-labelledby={`${ids}-look`} data-testid="branding-look">
      <h2 id={`${ids}-look`}>{ct('branding.look.title')}</h2>
      <p className="muted">{ct('branding.look.help')}</p>

      <div className="form-field">
        <span className="label" id={`${ids}-logo`}>{ct('branding.logo.label')}</span>
        <div className="branding-logo-row">
          {branding.logo ? (
            <img className="branding-logo" src={branding.logo.url} alt={ct('branding.logo.current')} data-testid="branding-logo" />
          ) : (
            <p className="muted">{ct('branding.logo.none')}</p>
          )}
          {admin && (
            <div className="team-actions">
              <label className="btn btn-secondary btn-sm branding-upload">
                {ct('branding.logo.choose')}
                <input type="file" accept="image/png,image/jpeg" onChange={pick} disabled={props.busy} aria-describedby={`${ids}-logo-hint`} data-testid="branding-logo-input" />
              </label>
              {branding.logo && (
                <button type="button" className="btn btn-secondary btn-sm" onClick={props.onRemoveLogo} disabled={props.busy}>
                  {ct('branding.logo.remove')}
                </button>
              )}
            </div>
          )}
        </div>
        {admin && <span className="muted small" id={`${ids}-logo-hint`}>{ct('branding.logo.hint')}</span>}
      </div>

      <div className="form-field">
        <label className="label" htmlFor={`${ids}-hex`}>{ct('branding.color.label')}</label>
        <div className="branding-colour-row">
          <input type="color" className="branding-swatch" value={colour ?? SERVICE_PRIMARY} disabled={!admin} aria-label={ct('branding.color.picker')}
            onChange={(e) => setHex(e.target.value)} />
          <input id={`${ids}-hex`} className="input branding-hex" dir="ltr" value={hex} readOnly={!admin} placeholder={admin ? '#1d4ed8' : undefined} spellCheck={false}
            aria-describedby={`${ids}-hex-hint ${ids}-verdict`} aria-invalid={hex.trim() !== '' && !colour} onChange={(e) => setHex(e.target.value)} data-testid="branding-hex" />
        </div>
        <span className="muted small" id={`${ids}-hex-hint`}>{ct('branding.color.hint')}</span>
      </div>
      <Preview colour={colour} invalid={hex.trim() !== '' && !colour} logoUrl={branding.logo?.url ?? null} verdictId={`${ids}-verdict`} />
      {admin && (
        <div>
          <button className="btn btn-primary" type="submit" disabled={props.busy || (hex.trim() !== '' && !colour)}>
            {ct('team.save')}
          </button>
        </div>
      )}
    </form>
  )
}

/** A signing page's header and button in the colour as the pages will draw it, and the contrast verdict. */
function Preview({ colour, invalid, logoUrl, verdictId }: { colour: string | null; invalid: boolean; logoUrl: string | null; verdictId: string }) {
  const palette = colour ? brandPalette(colour) : null
  const ratio = (n: number) => n.toFixed(1)
  return (
    <div className="stack-sm">
      <span className="label">{ct('branding.preview.title')}</span>
      <div className="branding-preview" data-testid="branding-preview">
        {logoUrl && <img src={logoUrl} alt="" className="branding-preview-logo" />}
        <span className="btn btn-primary branding-preview-button" style={palette ? { background: palette.primary, borderColor: palette.primary, color: palette.primaryForeground } : undefined}
          data-testid="branding-preview-button">
          {ct('branding.preview.button')}
        </span>
      </div>
      <p className="small" id={verdictId} aria-live="polite" data-testid="branding-verdict">
        {invalid
          ? ct('branding.contrast.invalid')
          : !palette || !colour
            ? ct('branding.contrast.service')
            : palette.kept
              ? ct('branding.contrast.pass', { button: ratio(palette.buttonRatio), page: ratio(palette.pageRatio) })
              : ct('branding.contrast.adjusted', { page: ratio(contrast(colour, '#ffffff')), shade: palette.primary, button: ratio(palette.buttonRatio) })}
      </p>
    </div>
  )
}
