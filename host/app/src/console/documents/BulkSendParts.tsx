import { useEffect, useId, useRef, type ReactNode } from 'react'
import type { Field } from '../../../../../src/protocol/index.js'
import { ct, type ConsoleKey } from '../i18n/index.js'
import { Notice } from '../parts.js'
import { linkProps } from '../router.js'
import { DropZone } from './DropZone.js'
import { fieldLabel, rolesOf, TABLE_TYPES, type BulkPreviewAnswer, type BulkStatus, type Mapping, type RowProblem } from './bulk-mapping.js'
import { prefillable } from './PrefillFields.js'
import type { Envelope } from './types.js'

type Template = Envelope & { fields?: Field[] }

/** A row's problems in the reader's language (the host's sentence for a code the console does not know). */
const problemText = (problems: RowProblem[]) =>
  problems
    .map((x) => {
      const key = `bulk.problem.${x.code}` as ConsoleKey
      const words = ct(key, { column: x.column ?? '', value: x.value ?? '', row: x.row ?? '' })
      return words === key ? x.message : words
    })
    .join('; ')

/** "Send 47 documents", its plural form the language's (`bulk.send.one`, `.few`, `.other`, ...). */
export const sendLabel = (count: number) => ct('bulk.send' as ConsoleKey, { count })

/** The table to send from: dropped on the zone or chosen; a file that is not CSV or XLSX is said at once. */
export function ChooseTable({ file, problem, onChoose }: { file: File | null; problem: string | null; onChoose: (f: File | undefined) => void }) {
  return (
    <>
      <DropZone
        title={ct('bulk.drop')}
        choose={file ? ct('bulk.otherFile') : ct('bulk.choose')}
        hint={file ? ct('bulk.file', { name: file.name }) : ct('bulk.hint')}
        accept={['.csv', '.xlsx', ...TABLE_TYPES].join(',')}
        testId="bulk-drop"
        onFiles={(files) => onChoose(files[0])}
      />
      {problem && (
        <p className="alert alert-error" role="alert">
          {problem}
        </p>
      )}
    </>
  )
}

/** A choice of column: required (a role's address) or optional ("None"). */
function ColumnSelect(props: { label: string; columns: string[]; value: string; required?: boolean; onChange: (v: string) => void }) {
  const id = useId()
  return (
    <div className="form-field">
      <label className="label" htmlFor={id}>
        {props.label}
      </label>
      <select id={id} className="input" required={props.required} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">{props.required ? ct('bulk.chooseColumn') : ct('bulk.noColumn')}</option>
        {props.columns.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    </div>
  )
}

/** Which column gives each role's address and name, each fillable field's value and the title. */
export function MappingForm(props: { template: Template; columns: string[]; mapping: Mapping; busy: boolean; onChange: (m: Mapping) => void; onSubmit: () => void }) {
  const { template, columns, mapping: m, onChange } = props
  const fields = prefillable(template.fields ?? [])
  const fixed = template.recipients.filter((r) => r.email)
  return (
    <form
      className="stack bulk-mapping"
      aria-labelledby="bulk-mapping"
      onSubmit={(e) => {
        e.preventDefault()
        props.onSubmit()
      }}
    >
      <h3 id="bulk-mapping">{ct('bulk.mapping')}</h3>
      <p className="muted small">{ct('bulk.mappingHelp')}</p>
      {rolesOf(template).map((r) => {
        const set = (key: 'email' | 'name', v: string) => onChange({ ...m, recipients: { ...m.recipients, [r.id]: { ...m.recipients[r.id]!, [key]: v } } })
        return (
          <fieldset key={r.id} className="bulk-role">
            <legend className="label">{ct('bulk.role', { role: r.name })}</legend>
            <ColumnSelect label={ct('bulk.roleEmail', { role: r.name })} columns={columns} required value={m.recipients[r.id]?.email ?? ''} onChange={(v) => set('email', v)} />
            <ColumnSelect label={ct('bulk.roleName', { role: r.name })} columns={columns} value={m.recipients[r.id]?.name ?? ''} onChange={(v) => set('name', v)} />
          </fieldset>
        )
      })}
      {fixed.map((r) => (
        <p key={r.id} className="muted small">
          {ct('bulk.fixed', { name: r.name ? `${r.name} (${r.email})` : r.email })}
        </p>
      ))}
      {fields.length > 0 && (
        <fieldset className="bulk-role">
          <legend className="label">{ct('bulk.fields')}</legend>
          {fields.map((f, n) => (
            <ColumnSelect
              key={f.id}
              label={fieldLabel(f, ct('templates.fieldN', { type: ct(`templates.field.${f.type}` as ConsoleKey), n: n + 1 }))}
              columns={columns}
              value={m.prefill[f.id] ?? ''}
              onChange={(v) => onChange({ ...m, prefill: { ...m.prefill, [f.id]: v } })}
            />
          ))}
        </fieldset>
      )}
      <ColumnSelect label={ct('bulk.docTitle')} columns={columns} value={m.title} onChange={(v) => onChange({ ...m, title: v })} />
      <div>
        <button className="btn btn-primary" type="submit" disabled={props.busy}>
          {props.busy ? ct('bulk.checking') : ct('bulk.previewButton')}
        </button>
      </div>
    </form>
  )
}

/** Counts side by side: rows, to send, refused (and sent, at the end). */
function Counts({ items }: { items: [ConsoleKey, number][] }) {
  return (
    <dl className="bulk-counts">
      {items.map(([key, n]) => (
        <div key={key} data-testid={key}>
          <dt>{ct(key)}</dt>
          <dd>{n}</dd>
        </div>
      ))}
    </dl>
  )
}

/** A heading that takes the focus when it appears, so a screen reader hears the new state. */
function FocusHeading({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null)
  useEffect(() => ref.current?.focus(), [])
  return (
    <h3 ref={ref} tabIndex={-1} className="bulk-heading">
      {children}
    </h3>
  )
}

/** The host's preview: counts, the first rows as they would go, every refused row and why. */
export function BulkPreview(props: { template: Template; preview: BulkPreviewAnswer; busy: boolean; onBack: () => void; onSend: () => void }) {
  const { preview: p } = props
  const roles = rolesOf(props.template)
  const over = p.allowed < p.sendable
  return (
    <div className="stack">
      <FocusHeading>{ct('bulk.preview')}</FocusHeading>
      <Counts items={[['bulk.count.total', p.total], ['bulk.count.sendable', p.sendable], ['bulk.count.refused', p.total - p.sendable]]} />
      {over && (
        <p className="alert alert-error" role="alert">
          {ct('bulk.overPlan', { allowed: p.allowed, sendable: p.sendable })}
        </p>
      )}
      {p.encoding === 'windows-1252' && <p className="alert">{ct('bulk.windows1252')}</p>}
      <div className="bulk-table-wrap">
        <table className="console-table bulk-table">
          <caption>{ct('bulk.rowsCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{ct('bulk.col.row')}</th>
              {roles.map((r) => [
                <th key={`${r.id}-e`} scope="col">
                  {ct('bulk.col.email', { role: r.name })}
                </th>,
                <th key={`${r.id}-n`} scope="col">
                  {ct('bulk.col.name', { role: r.name })}
                </th>,
              ])}
              <th scope="col">{ct('bulk.col.check')}</th>
            </tr>
          </thead>
          <tbody>
            {p.rows.map((row) => (
              <tr key={row.row} data-testid="bulk-row">
                <th scope="row" data-label={ct('bulk.col.row')}>
                  {row.row}
                </th>
                {roles.map((r) => {
                  const person = row.recipients?.find((x) => x.id === r.id)
                  return [
                    <td key={`${r.id}-e`} data-label={ct('bulk.col.email', { role: r.name })} className="bulk-cell">
                      {person?.email || '—'}
                    </td>,
                    <td key={`${r.id}-n`} data-label={ct('bulk.col.name', { role: r.name })} className="bulk-cell">
                      {person?.name || '—'}
                    </td>,
                  ]
                })}
                <td data-label={ct('bulk.col.check')} className={row.problems.length ? 'bulk-problem' : undefined}>
                  {row.problems.length ? problemText(row.problems) : ct('bulk.ready')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h4 className="bulk-subhead">{ct('bulk.problems')}</h4>
      {p.problems.length ? (
        <ul className="bulk-problems" data-testid="bulk-problems">
          {p.problems.map((x) => (
            <li key={x.row}>{ct('bulk.problemRow', { row: x.row, problems: problemText(x.problems) })}</li>
          ))}
        </ul>
      ) : (
        <p className="muted">{ct('bulk.noProblems')}</p>
      )}
      <div className="team-actions">
        <button className="btn btn-secondary" type="button" onClick={props.onBack}>
          {ct('bulk.back')}
        </button>
        <button className="btn btn-primary" type="button" disabled={props.busy || over || p.sendable === 0} onClick={props.onSend}>
          {sendLabel(p.sendable)}
        </button>
      </div>
    </div>
  )
}

/** The documents going: a bar of the rows done. */
export function BulkProgress({ status }: { status: BulkStatus }) {
  const done = status.total - status.pending
  const label = useId()
  return (
    <div className="stack">
      <FocusHeading>{ct('bulk.sending')}</FocusHeading>
      <div
        className="bulk-bar"
        role="progressbar"
        aria-labelledby={label}
        aria-valuemin={0}
        aria-valuemax={status.total}
        aria-valuenow={done}
        aria-valuetext={ct('bulk.progress', { done, total: status.total })}
      >
        <div className="bulk-bar-fill" style={{ width: `${status.total ? (100 * done) / status.total : 0}%` }} />
      </div>
      <p id={label} className="muted small">
        {ct('bulk.progress', { done, total: status.total })}
      </p>
    </div>
  )
}

/** The end: what went and what did not, the report, and the way to the documents. */
export function BulkDone({ status, onReport, onAgain }: { status: BulkStatus; onReport: () => void; onAgain: () => void }) {
  return (
    <div className="stack">
      <Notice>{ct('bulk.done', { sent: status.sent, refused: status.refused })}</Notice>
      <Counts items={[['bulk.count.total', status.total], ['bulk.count.sent', status.sent], ['bulk.count.refused', status.refused]]} />
      <div className="team-actions">
        <button className="btn btn-primary" type="button" onClick={onReport}>
          {ct('bulk.report')}
        </button>
        <a className="btn btn-secondary" {...linkProps('/console/documents')}>
          {ct('bulk.documents')}
        </a>
        <button className="btn btn-secondary" type="button" onClick={onAgain}>
          {ct('bulk.again')}
        </button>
      </div>
    </div>
  )
}
