import { t, tn, type MessageKey } from '../i18n/index.js'
import { Icon } from '../page/icons.js'
import type { Progress, Role, SigningField } from './session.js'
import type { Notice } from './useSigningFields.js'

/** The bar under the document: how far the recipient is, the way to the next field, the action and its notice. */
export function SignBar(props: {
  role: Role
  progress: Progress
  next: SigningField | null
  onNext: (f: SigningField) => void
  onAction: () => void
  notice: Notice | null
  /** Fields the conditions just showed, hid or made required: said politely (each change is a new line, so a repeat is said again). */
  news?: { text: string; n: number }
}) {
  const { progress, next, notice } = props
  const remaining = progress.required.length - progress.done
  return (
    <footer className="sign-bar" data-testid="sign-bar">
      <div className="sign-bar-inner">
        {progress.required.length > 0 && <SignProgress progress={progress} remaining={remaining} />}
        <div className="sign-bar-actions">
          {next && (
            <button type="button" className="btn" onClick={() => props.onNext(next)} data-testid="next-field">
              {t('sign.nextField')}
              <Icon name="arrowDown" />
            </button>
          )}
          {/* Until every required field is filled it says how many remain, and leads to the next one. */}
          <button type="button" className="btn btn-primary" onClick={props.onAction} data-testid="complete" data-pending={remaining > 0 || undefined} aria-describedby="sign-notice">
            {t(`sign.action.${props.role}` as MessageKey)}
            {remaining > 0 && (
              <span className="count-badge" aria-hidden="true">
                {tn('sign.remaining', remaining)}
              </span>
            )}
          </button>
        </div>
      </div>
      {/* What only confirms (a signature added) is for screen readers; what asks for action is for everyone. */}
      <p id="sign-notice" className={'sign-notice' + (notice?.tone === 'error' ? ' text-error' : ' sr-only')} role={notice?.tone === 'error' ? 'alert' : 'status'} data-testid="notice">
        {notice?.text}
      </p>
      <p className="sr-only" aria-live="polite" data-testid="logic-news">
        {props.news?.text ? <span key={props.news.n}>{props.news.text}</span> : null}
      </p>
    </footer>
  )
}

/** The required fields done, said (politely, as it changes) and drawn as a bar. */
function SignProgress({ progress, remaining }: { progress: Progress; remaining: number }) {
  return (
    <div className="sign-progress">
      <p className="sign-progress-text" aria-live="polite" data-testid="progress">
        {remaining === 0 ? t('sign.progress.done') : t('sign.progress', { done: progress.done, total: progress.required.length })}
      </p>
      <div className="progress-track" aria-hidden="true">
        <span className="progress-fill" style={{ width: `${(progress.done / progress.required.length) * 100}%` }} />
      </div>
    </div>
  )
}
