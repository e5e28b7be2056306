import { t, type MessageKey } from '../i18n/index.js'
import { Icon } from './icons.js'

const KNOWN = ['INVALID_TOKEN', 'TOKEN_EXPIRED', 'NOT_FOUND', 'FORBIDDEN', 'INVALID_OPTIONS', 'INTERNAL']

/** A session that cannot go on: say why in plain words, and give the code for support. */
export function ErrorScreen({ code }: { code: string }) {
  const key = (KNOWN.includes(code) ? `error.${code}` : 'error.INTERNAL') as MessageKey
  return (
    <main className="center-screen">
      <div className="result card" role="alert" data-testid="error-screen" data-code={code}>
        <span className="result-icon result-error">
          <Icon name="alert" size={28} />
        </span>
        <h1 className="result-title">{t('error.title')}</h1>
        <p>{t(key)}</p>
        <p className="muted small">{t('error.code', { code })}</p>
      </div>
    </main>
  )
}
