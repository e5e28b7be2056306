/** The console's words in Spanish, every area's: loaded when the console speaks it. */
import type { ConsoleWords } from './en.js'
import account from './account/es.js'
import branding from './branding/es.js'
import documents from './documents/es.js'
import errors from './errors/es.js'
import send from './send/es.js'
import shell from './shell/es.js'
import team from './team/es.js'

const es: ConsoleWords = { ...shell, ...account, ...team, ...documents, ...send, ...branding, ...errors }
export default es
