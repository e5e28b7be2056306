import { isEditRoute } from '../page/boot.js'
import type { Draft } from './draft/model.js'
import { t, tn } from '../i18n/index.js'
import type { Session } from './session.js'
import { Icon } from '../page/icons.js'

/** Shown once the envelope is stored and the parent has been told. */
export function Done({ session, draft, onAgain }: { session: Session; draft: Draft; onAgain: () => void }) {
  const edit = isEditRoute(session.launch.route)
  return (
    <main className="center-screen">
      <div className="result card" role="status">
        <span className="result-icon result-success">
          <Icon name="check" size={28} />
        </span>
        <h1 className="result-title">{edit ? t('done.saved') : t(`done.created.${draft.type}`)}</h1>
        <p className="muted">
          {t('done.summary', {
            title: draft.settings.title.trim(),
            files: tn('done.files', draft.items.length),
            recipients: tn('done.recipients', draft.recipients.length),
            fields: tn('fields.count', draft.fields.length),
          })}
        </p>
        <button type="button" className="btn btn-secondary" onClick={onAgain}>
          {edit ? t('done.keepEditing') : t(`done.another.${draft.type}`)}
        </button>
      </div>
    </main>
  )
}

/** An envelope that was sent: shown as it is, with nothing to save (the service would refuse any change). */
export function Sent({ session }: { session: Session }) {
  const draft = session.draft
  return (
    <main className="center-screen">
      <div className="result card" role="status" data-testid="sent-envelope">
        <span className="result-icon result-success">
          <Icon name="check" size={28} />
        </span>
        <h1 className="result-title">{t('sent.title')}</h1>
        <p className="muted">
          {t('sent.summary', {
            title: draft.settings.title.trim(),
            files: tn('done.files', draft.items.length),
            recipients: tn('done.recipients', draft.recipients.length),
          })}
        </p>
      </div>
    </main>
  )
}
