import { useMemo, useState, type ReactNode } from 'react'
import { DOCUMENT_LANGUAGES } from '../../../shared/languages.js'
import { DATE_FORMATS } from './draft/browser-defaults.js'
import { isUrl, newKey, type DraftSettings } from './draft/model.js'
import type { SettingId } from '../page/features.js'
import { t } from '../i18n/index.js'
import type { StepProps } from './steps.js'
import { Icon } from '../page/icons.js'

function timeZones(): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []
  return ['Etc/UTC', ...all.filter((z) => z !== 'UTC' && z !== 'Etc/UTC')]
}

const withCurrent = (list: string[], value: string) => (list.includes(value) ? list : [value, ...list])

export function SettingsStep({ features, draft, setDraft, problems }: StepProps) {
  const s = draft.settings
  const allowed = (key: SettingId) => features.settings[key]
  const set = (patch: Partial<DraftSettings>) => setDraft((d) => ({ ...d, settings: { ...d.settings, ...patch } }))
  const zones = useMemo(timeZones, [])
  const [touched, setTouched] = useState<Record<string, boolean>>({})
  const show = (what: string, problem: string) => touched[what] || problems.some((p) => p.message === problem)
  const titleInvalid = show('title', 'problem.title') && !s.title.trim()
  const redirectInvalid = show('redirect', 'problem.redirectUrl') && !!s.redirectUrl.trim() && !isUrl(s.redirectUrl)
  const noSignatureType = !s.typedSignatureEnabled && !s.uploadSignatureEnabled && !s.drawSignatureEnabled

  return (
    <div className="stack">
      <Section title={t('settings.general')}>
        <TextField
          id="settings-title"
          label={t('settings.docTitle')}
          value={s.title}
          required
          readOnly={!features.title}
          error={titleInvalid ? t('problem.title') : null}
          onChange={(title) => set({ title })}
          onBlur={() => setTouched((x) => ({ ...x, title: true }))}
        />
        {allowed('language') && (
          <SelectField id="settings-language" label={t('settings.language')} value={s.language} onChange={(language) => set({ language })}
            options={withCurrent(DOCUMENT_LANGUAGES.map((l) => l.code), s.language).map((c) => [c, DOCUMENT_LANGUAGES.find((l) => l.code === c)?.name ?? c])} />
        )}
        {allowed('dateFormat') && (
          <SelectField id="settings-date-format" label={t('settings.dateFormat')} value={s.dateFormat} onChange={(dateFormat) => set({ dateFormat })}
            options={withCurrent(DATE_FORMATS, s.dateFormat).map((f) => [f, f])} />
        )}
        {allowed('timezone') && (
          <SelectField id="settings-timezone" label={t('settings.timezone')} value={s.timezone} onChange={(timezone) => set({ timezone })}
            options={withCurrent(zones, s.timezone).map((z) => [z, z.replace(/_/g, ' ')])} />
        )}
      </Section>

      {(allowed('signatureTypes') || allowed('redirectUrl')) && (
        <Section title={t('settings.signing')}>
          {allowed('signatureTypes') && (
            <fieldset className="form-field" aria-invalid={noSignatureType || undefined}>
              <legend className="label">{t('settings.signatureTypes')}</legend>
              <div className="choice-row">
                {(
                  [
                    ['typedSignatureEnabled', 'settings.typed'],
                    ['uploadSignatureEnabled', 'settings.upload'],
                    ['drawSignatureEnabled', 'settings.draw'],
                  ] as const
                ).map(([key, label]) => (
                  <label className="choice" key={key}>
                    <input type="checkbox" checked={s[key]} onChange={(e) => set({ [key]: e.target.checked })} />
                    {t(label)}
                  </label>
                ))}
              </div>
              {noSignatureType && <p className="field-error">{t('problem.signatureTypes')}</p>}
            </fieldset>
          )}
          {allowed('redirectUrl') && (
            <TextField
              id="settings-redirect"
              label={t('settings.redirectUrl')}
              hint={t('settings.redirectHint')}
              type="url"
              placeholder="https://"
              value={s.redirectUrl}
              error={redirectInvalid ? t('settings.invalidUrl') : null}
              onChange={(redirectUrl) => set({ redirectUrl })}
              onBlur={() => setTouched((x) => ({ ...x, redirect: true }))}
            />
          )}
        </Section>
      )}

      {allowed('communication') && (
        <Section title={t('settings.communication')}>
          <fieldset className="form-field">
            <legend className="label">{t('settings.distribution')}</legend>
            <div className="choice-row">
              {(['EMAIL', 'NONE'] as const).map((value) => (
                <label className="choice" key={value}>
                  <input type="radio" name="distribution" checked={s.distributionMethod === value} onChange={() => set({ distributionMethod: value })} />
                  {t(value === 'EMAIL' ? 'settings.byEmail' : 'settings.manually')}
                </label>
              ))}
            </div>
          </fieldset>
          {s.distributionMethod === 'EMAIL' && (
            <>
              <TextField id="settings-subject" label={t('settings.subject')} value={s.subject} onChange={(subject) => set({ subject })} />
              <div className="form-field">
                <label className="label" htmlFor="settings-message">
                  {t('settings.message')}
                </label>
                <textarea id="settings-message" className="input" rows={4} value={s.message} onChange={(e) => set({ message: e.target.value })} />
              </div>
            </>
          )}
        </Section>
      )}

      {features.attachments && (
        <Section title={t('settings.attachments')} intro={t('settings.attachmentsIntro')}>
          {draft.attachments.map((a, n) => {
            const invalid = problems.some((p) => p.target === a.key)
            const update = (patch: { label?: string; url?: string }) =>
              setDraft((d) => ({ ...d, attachments: d.attachments.map((x) => (x.key === a.key ? { ...x, ...patch } : x)) }))
            return (
              <div className="attachment-row" key={a.key} data-testid="attachment-row">
                <Icon name="link" />
                <input className="input" aria-label={`${t('settings.attachmentLabel')} ${n + 1}`} placeholder={t('settings.attachmentLabel')}
                  aria-invalid={(invalid && !a.label.trim()) || undefined} value={a.label} onChange={(e) => update({ label: e.target.value })} />
                <input className="input" type="url" aria-label={`${t('settings.attachmentUrl')} ${n + 1}`} placeholder={t('settings.attachmentUrl')}
                  aria-invalid={(invalid && !isUrl(a.url)) || undefined} value={a.url} onChange={(e) => update({ url: e.target.value })} />
                <button type="button" className="btn-icon btn-danger" aria-label={t('settings.removeAttachment', { n: n + 1 })}
                  onClick={() => setDraft((d) => ({ ...d, attachments: d.attachments.filter((x) => x.key !== a.key) }))}>
                  <Icon name="trash" />
                </button>
              </div>
            )
          })}
          <div>
            <button type="button" className="btn btn-secondary btn-sm"
              onClick={() => setDraft((d) => ({ ...d, attachments: [...d.attachments, { key: newKey('a'), id: null, label: '', url: '' }] }))}>
              <Icon name="plus" />
              {t('settings.addAttachment')}
            </button>
          </div>
        </Section>
      )}
    </div>
  )
}

function Section(props: { title: string; intro?: string; children: ReactNode }) {
  return (
    <section className="card card-pad settings-section">
      <h3 className="section-title">{props.title}</h3>
      {props.intro && <p className="muted small">{props.intro}</p>}
      <div className="stack-sm">{props.children}</div>
    </section>
  )
}

function TextField(props: {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
  onBlur?: () => void
  hint?: string
  error?: string | null
  type?: string
  placeholder?: string
  required?: boolean
  readOnly?: boolean
}) {
  const described = [props.hint && `${props.id}-hint`, props.error && `${props.id}-error`].filter(Boolean).join(' ')
  return (
    <div className="form-field">
      <label className="label" htmlFor={props.id}>
        {props.label}
      </label>
      <input
        id={props.id}
        className="input"
        type={props.type ?? 'text'}
        value={props.value}
        placeholder={props.placeholder}
        required={props.required}
        readOnly={props.readOnly}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={described || undefined}
        onChange={(e) => props.onChange(e.target.value)}
        onBlur={props.onBlur}
      />
      {props.hint && (
        <p id={`${props.id}-hint`} className="muted small">
          {props.hint}
        </p>
      )}
      {props.error && (
        <p id={`${props.id}-error`} className="field-error">
          {props.error}
        </p>
      )}
    </div>
  )
}

function SelectField(props: { id: string; label: string; value: string; options: [string, string][]; onChange: (value: string) => void }) {
  return (
    <div className="form-field">
      <label className="label" htmlFor={props.id}>
        {props.label}
      </label>
      <select id={props.id} className="input" value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </div>
  )
}
