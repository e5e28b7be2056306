/**
 * The signing pages (`/sign/{token}`, `/embed/sign/{token}#{options}`): the recipient's side of
 * the app, loaded as its own chunk by main.tsx. Same parts as the authoring pages: theme,
 * languages, message bridge, PDF rendering.
 */
import type { Root } from 'react-dom/client'
import './page.css'
import './dialogs.css'
import { LaunchError, readSignLaunch, type SignLaunch } from '../page/boot.js'
import { post, setParentOrigin } from '../page/bridge.js'
import { browserLanguage, loadLanguage, t } from '../i18n/index.js'
import { applyTheme } from '../page/theme.js'
import { FailureScreen } from './Screens.js'
import { registerSigningCommands } from './commands.js'
import { MultiSignApp } from './MultiSignApp.js'
import { SignApp } from './SignApp.js'
import { loadSigningSession, signingApi } from './session.js'

export function mount(root: Root): void {
  let launch: SignLaunch
  try {
    launch = readSignLaunch()
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e)
    const failure = e instanceof LaunchError && e.code === 'NOT_FOUND' ? 'INVALID_LINK' : 'INVALID_OPTIONS'
    void loadLanguage(browserLanguage()).then(() => root.render(<FailureScreen failure={failure} />))
    post({ action: 'document-error', data: message })
    post({ type: 'embed-error', code: e instanceof LaunchError ? e.code : 'INVALID_OPTIONS', message })
    return
  }
  setParentOrigin(launch.options.parentOrigin)
  applyTheme(launch.options)
  if (launch.tokens) {
    const multi = { ...launch, tokens: launch.tokens }
    void loadLanguage(launch.options.language ?? browserLanguage()).then(() => root.render(<MultiSignApp launch={multi} />))
    return
  }
  // Before the first render: the page's ready message announces the commands registered by then.
  // Only an embed takes commands: the standalone page answers no parent.
  if (launch.embedded) registerSigningCommands()
  const api = signingApi(launch.token, launch.direct)
  // The session request starts before the first render, so network and rendering overlap.
  const first = loadSigningSession(api)
  first.catch(() => {}) // handled by SignApp
  const ready = launch
  // Until the session names the document's language: the embed's, else the browser's.
  void loadLanguage(launch.options.language ?? browserLanguage()).then(() => {
    document.title = t('sign.loading')
    root.render(<SignApp launch={ready} api={api} first={first} />)
  })
}
