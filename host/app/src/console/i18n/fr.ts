/** The console's words in French, every area's: loaded when the console speaks it. */
import type { ConsoleWords } from './en.js'
import account from './account/fr.js'
import branding from './branding/fr.js'
import documents from './documents/fr.js'
import errors from './errors/fr.js'
import send from './send/fr.js'
import shell from './shell/fr.js'
import team from './team/fr.js'

const fr: ConsoleWords = { ...shell, ...account, ...team, ...documents, ...send, ...branding, ...errors }
export default fr
