import { createRoot } from 'react-dom/client'
import { readLaunch, LaunchError, type Launch } from './boot.js'
import { post, setParentOrigin, watchHeight } from './bridge.js'
import { applyTheme } from './theme.js'
import { setLanguage } from './i18n/index.js'
import { loadSession } from './session.js'
import { App } from './ui/App.js'
import { ErrorScreen } from './ui/ErrorScreen.js'
import './styles.css'

const root = createRoot(document.getElementById('root')!)
let launch: Launch | null = null
try {
  launch = readLaunch()
} catch (e) {
  const err = e instanceof LaunchError ? e : new LaunchError('INVALID_OPTIONS', String(e))
  setLanguage(navigator.language)
  root.render(<ErrorScreen code={err.code} />)
  post({ type: 'embed-error', code: err.code, message: err.message })
}
if (launch) {
  setParentOrigin(launch.options.parentOrigin)
  applyTheme(launch.options)
  setLanguage(launch.options.language)
  // The token check starts before the first render, so network and rendering overlap.
  const first = loadSession(launch)
  first.catch(() => {}) // handled by App; avoids an unhandled rejection before it subscribes
  root.render(<App launch={launch} first={first} />)
}
watchHeight()
