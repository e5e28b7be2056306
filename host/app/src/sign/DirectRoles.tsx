import type { SigningSession } from './session.js'
import { t } from '../i18n/index.js'

export type RolePeople = Record<number, { name: string; email: string }>

/** The first role whose person is incomplete, and which input is wrong; null when all are given. */
export function roleProblem(roles: NonNullable<SigningSession['roles']>, people: RolePeople, valid: (email: string) => boolean): { id: number; key: 'name' | 'email' } | null {
  for (const r of roles) {
    const p = people[r.id] ?? { name: '', email: '' }
    if (!p.name.trim()) return { id: r.id, key: 'name' }
    if (!valid(p.email)) return { id: r.id, key: 'email' }
  }
  return null
}

/**
 * A direct link's visitor names the person of each of the template's other roles ("Witness"):
 * the document made goes to them after the visitor.
 */
export function DirectRoles(props: {
  ids: string
  roles: NonNullable<SigningSession['roles']>
  people: RolePeople
  problem: { id: number; key: 'name' | 'email' } | null
  onChange: (people: RolePeople) => void
}) {
  return (
    <fieldset className="next-signer stack-sm" data-testid="direct-roles">
      <legend className="label">{t('sign.direct.roles')}</legend>
      <p className="muted small">{t('sign.direct.rolesHelp')}</p>
      {props.roles.map((r) => {
        const p = props.people[r.id] ?? { name: '', email: '' }
        return (
          <div key={r.id} className="stack-sm" role="group" aria-labelledby={`${props.ids}-role-${r.id}`}>
            <p id={`${props.ids}-role-${r.id}`} className="label-sm">
              <strong>{r.name || t('sign.direct.roleUnnamed')}</strong>
            </p>
            {(['name', 'email'] as const).map((key) => {
              const id = `${props.ids}-role-${r.id}-${key}`
              const wrong = props.problem?.id === r.id && props.problem.key === key
              return (
                <div className="form-field" key={key}>
                  <label className="label-sm" htmlFor={id}>
                    {t(key === 'name' ? 'sign.direct.roleName' : 'sign.direct.roleEmail', { role: r.name })}
                  </label>
                  <input
                    id={id}
                    className="input"
                    type={key === 'email' ? 'email' : 'text'}
                    autoComplete="off"
                    value={p[key]}
                    aria-invalid={wrong || undefined}
                    aria-describedby={`${id}-error`}
                    onChange={(e) => props.onChange({ ...props.people, [r.id]: { ...p, [key]: e.target.value } })}
                  />
                  <p id={`${id}-error`} className="field-error">
                    {wrong ? t(key === 'email' ? 'recipients.invalidEmail' : 'sign.invalid.required') : ''}
                  </p>
                </div>
              )
            })}
          </div>
        )
      })}
    </fieldset>
  )
}
