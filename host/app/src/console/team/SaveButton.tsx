import { ct } from '../i18n/index.js'

/**
 * A settings card's submit button. For a reader whose role may not change the card it stays,
 * disabled, with the reason beside it (`reasonId`, which the card's read-only fields name in
 * their aria-describedby too), so the card says why instead of looking editable.
 */
export function SaveButton(props: { busy: boolean; locked?: boolean; reasonId?: string; disabled?: boolean }) {
  if (!props.locked) {
    return (
      <div>
        <button className="btn btn-primary" type="submit" disabled={props.busy || props.disabled}>
          {ct('team.save')}
        </button>
      </div>
    )
  }
  return (
    <div className="team-locked">
      <button className="btn btn-primary" type="submit" disabled aria-describedby={props.reasonId}>
        {ct('team.save')}
      </button>
      <span className="muted small team-reason" id={props.reasonId}>
        {ct('team.adminOnly')}
      </span>
    </div>
  )
}
