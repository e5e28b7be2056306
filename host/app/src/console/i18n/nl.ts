/** The console's words in Dutch, every area's: loaded when the console speaks it. */
import type { ConsoleWords } from './en.js'
import account from './account/nl.js'
import branding from './branding/nl.js'
import documents from './documents/nl.js'
import errors from './errors/nl.js'
import send from './send/nl.js'
import shell from './shell/nl.js'
import team from './team/nl.js'

const nl: ConsoleWords = { ...shell, ...account, ...team, ...documents, ...send, ...branding, ...errors }
export default nl
