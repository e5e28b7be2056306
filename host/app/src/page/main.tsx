// The styles every page shares, first: each page's own come after them (its module imports them).
import './base.css'
import './controls.css'
import './screens.css'
import { createRoot, type Root } from 'react-dom/client'
import { isMultiSign, matchSignRoute, readLaunch, LaunchError, type Launch } from './boot.js'
import { post, setParentOrigin, setPosting, watchHeight } from './bridge.js'
import { watchViewport } from './viewport.js'
import { applyTheme } from './theme.js'
import { loadLanguage, setLanguage, t } from '../i18n/index.js'
import { loadSession, sessionInPage } from '../editor/session.js'
import { App } from '../editor/App.js'
import { ErrorScreen } from './ErrorScreen.js'

const root = createRoot(document.getElementById('root')!)
/** The public page that checks a PDF's seal (its own chunk; host/server/pages.ts serves it). */
const VERIFY_PATH = '/verify'
/** The team console (its own chunk). */
const CONSOLE_PATH = '/console'

// Two kinds of page, one app: the recipient's signing page is its own chunk, loaded only on
// its routes, so the authoring page's first chunk carries none of it.
const sign = isMultiSign(location.pathname) ? { embedded: true } : matchSignRoute(location.pathname)
if (location.pathname === VERIFY_PATH) void import('../verify/index.js').then((m) => m.mount(root))
else if (location.pathname === CONSOLE_PATH || location.pathname.startsWith(`${CONSOLE_PATH}/`)) void import('../console/index.js').then((m) => m.mount(root))
else if (sign) startSigning(root, sign.embedded)
else startAuthoring(root)
// Before the load event, which any page has: the parent knows from this that the frame holds ours.
post({ type: 'embed-loading' })
watchHeight()
watchViewport()

function startSigning(root: Root, embedded: boolean) {
  setPosting(embedded)
  import('../sign/index.js').then(
    (m) => m.mount(root),
    (e: unknown) => {
      // The chunk did not arrive (network, or a deploy replaced it): say so in the visitor's language.
      setLanguage(navigator.language)
      root.render(
        <main className="center-screen">
          <p className="result card" role="alert">
            {t('sign.error.NETWORK')}
          </p>
        </main>,
      )
      const message = e instanceof Error ? e.message : String(e)
      post({ action: 'document-error', data: message })
      post({ type: 'embed-error', code: 'INTERNAL', message })
    },
  )
}

function startAuthoring(root: Root) {
  let launch: Launch | null = null
  try {
    launch = readLaunch()
  } catch (e) {
    const err = e instanceof LaunchError ? e : new LaunchError('INVALID_OPTIONS', String(e))
    void loadLanguage(navigator.language).then(() => root.render(<ErrorScreen code={err.code} />))
    post({ type: 'embed-error', code: err.code, message: err.message })
  }
  if (launch) {
    const ready = launch
    setParentOrigin(launch.options.parentOrigin)
    applyTheme(launch.options)
    setLanguage(launch.options.language)
    // A create route whose session came in the page renders the editor at once; otherwise the
    // token check starts before the first render, so network, the dictionary and rendering overlap.
    const first = sessionInPage(launch) ?? loadSession(launch)
    if (first instanceof Promise) first.catch(() => {}) // handled by App; avoids an unhandled rejection before it subscribes
    void loadLanguage(launch.options.language).then(() => root.render(<App launch={ready} first={first} />))
  }
}
