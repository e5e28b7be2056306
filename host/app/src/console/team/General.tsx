import { useCallback, useEffect, useId, useState, type FormEvent } from 'react'
import type { TeamUsage } from '../../../../shared/console-contract.js'
import { consoleApi, v2 } from '../api.js'
import { ct, formatDateTime, type ConsoleKey } from '../i18n/index.js'
import { atLeast, useMe } from '../me.js'
import { ErrorAlert, Field, Notice, messageOf, useAction } from '../parts.js'
import { navigate } from '../router.js'
import { ConsentDisclosure } from './ConsentDisclosure.js'
import { SaveButton } from './SaveButton.js'
import { SettingsLayout } from './SettingsLayout.js'

/** The team's retention as GET /team answers it (domain/team-settings.ts). */
interface TeamRetention {
  retentionDays: number | null
  retention: { dueWithin7Days: number; nextPurgeAt: string | null } | null
}

/** `/console/settings`: the team's name, plan and usage, who may frame its pages, how long it keeps finished documents, and a new team. */
export function General() {
  const { me, reload } = useMe()
  const admin = atLeast(me.team?.role, 'ADMIN')
  // Why a card is read-only, for those below ADMIN: beside its disabled button, and named by its fields.
  const reason = useId()
  const why = (card: string) => (admin ? undefined : `${reason}-${card}`)
  const [usage, setUsage] = useState<TeamUsage | null>(null)
  const [name, setName] = useState('')
  const [origins, setOrigins] = useState('')
  const [retentionDays, setRetentionDays] = useState('')
  const [retention, setRetention] = useState<TeamRetention | null>(null)
  const [newTeam, setNewTeam] = useState('')
  const [saved, setSaved] = useState<string | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const action = useAction()

  const load = useCallback(async () => {
    try {
      const u = await consoleApi('/team')
      setUsage(u)
      setName(u.name)
      const team = await v2<{ embedOrigins: string[] | null } & TeamRetention>('/team')
      setOrigins((team.embedOrigins ?? []).join('\n'))
      setRetention(team)
      setRetentionDays(team.retentionDays === null ? '' : String(team.retentionDays))
    } catch (err) {
      setLoadError(messageOf(err))
    }
  }, [])
  useEffect(() => void load(), [load, me.team?.teamId])

  const rename = (e: FormEvent) => {
    e.preventDefault()
    void action.run(async () => {
      await consoleApi('/team/rename', { body: { name } })
      await reload()
      setSaved(ct('team.saved'))
    })
  }
  const saveOrigins = (e: FormEvent) => {
    e.preventDefault()
    const list = origins.split(/[\s,]+/).filter(Boolean)
    void action.run(async () => {
      await v2('/team/update', { body: { embedOrigins: list.length ? list : null } })
      setSaved(ct('team.saved'))
    })
  }
  const saveRetention = (e: FormEvent) => {
    e.preventDefault()
    const days = retentionDays.trim()
    void action.run(async () => {
      setRetention(await v2<TeamRetention>('/team/update', { body: { retentionDays: days ? Number(days) : null } }))
      setSaved(ct('team.saved'))
    })
  }
  const create = (e: FormEvent) => {
    e.preventDefault()
    void action.run(async () => {
      await consoleApi('/teams', { body: { name: newTeam } })
      await reload()
      navigate('/console/settings')
    })
  }

  return (
    <SettingsLayout title={ct('team.general.title')}>
      <ErrorAlert error={loadError ?? action.error} />
      {saved && <Notice>{saved}</Notice>}
      {usage && (
        <>
          <section className="card card-pad stack" aria-labelledby="team-plan">
            <h2 id="team-plan">{ct('team.plan.title')}</h2>
            <p>
              {ct('team.plan.current', { plan: ct(`team.plan.${usage.plan}` as ConsoleKey) })}{' '}
              {usage.documentLimit !== null
                ? ct('team.plan.usageLimited', { documents: usage.documents, limit: usage.documentLimit, month: usage.month })
                : ct('team.plan.usage', { documents: usage.documents, month: usage.month })}
            </p>
            {usage.documentLimit !== null && (
              <progress className="team-usage" max={usage.documentLimit} value={Math.min(usage.documents, usage.documentLimit)} aria-label={ct('team.plan.meter')} />
            )}
            <p className="muted">{usage.embedding ? ct('team.plan.embeddingOn') : ct('team.plan.embeddingOff')}</p>
          </section>
          <form className="card card-pad stack" onSubmit={rename} aria-labelledby="team-name">
            <h2 id="team-name">{ct('team.name.title')}</h2>
            <Field label={ct('team.name.label')} value={name} onChange={setName} required readOnly={!admin} describedBy={why('name')} />
            <SaveButton busy={action.busy} locked={!admin} reasonId={why('name')} />
          </form>
          <form className="card card-pad stack" onSubmit={saveOrigins} aria-labelledby="team-embedding">
            <h2 id="team-embedding">{ct('team.embedding.title')}</h2>
            <p className="muted">{ct('team.embedding.help')}</p>
            <label className="form-field">
              <span className="label">{ct('team.embedding.label')}</span>
              <textarea
                className="input"
                rows={3}
                value={origins}
                readOnly={!admin}
                aria-describedby={why('origins')}
                onChange={(e) => setOrigins(e.target.value)}
                // An example to follow is for those who may type here.
                placeholder={admin ? 'https://app.example.com' : undefined}
              />
            </label>
            <SaveButton busy={action.busy} locked={!admin} reasonId={why('origins')} />
          </form>
          <form className="card card-pad stack" onSubmit={saveRetention} aria-labelledby="team-retention">
            <h2 id="team-retention">{ct('team.retention.title')}</h2>
            <p className="muted">{ct('team.retention.help')}</p>
            <Field
              label={ct('team.retention.label')}
              type="number"
              inputMode="numeric"
              value={retentionDays}
              onChange={setRetentionDays}
              readOnly={!admin}
              hint={ct('team.retention.hint')}
              describedBy={why('retention')}
            />
            <p data-testid="retention-outlook">
              {!retention?.retention
                ? ct('team.retention.forever')
                : retention.retention.nextPurgeAt === null
                  ? ct('team.retention.none')
                  : ct('team.retention.due', { count: retention.retention.dueWithin7Days, date: formatDateTime(retention.retention.nextPurgeAt) })}
            </p>
            <SaveButton busy={action.busy} locked={!admin} reasonId={why('retention')} />
          </form>
          <ConsentDisclosure admin={admin} />
        </>
      )}
      <form className="card card-pad stack" onSubmit={create} aria-labelledby="team-new">
        <h2 id="team-new">{ct('team.new.title')}</h2>
        <p className="muted">{ct('team.new.help')}</p>
        <Field label={ct('team.new.label')} value={newTeam} onChange={setNewTeam} required />
        <div>
          <button className="btn btn-secondary" type="submit" disabled={action.busy}>
            {ct('team.new.submit')}
          </button>
        </div>
      </form>
    </SettingsLayout>
  )
}
