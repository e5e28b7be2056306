/** The console's words in Italian, every area's: loaded when the console speaks it. */
import type { ConsoleWords } from './en.js'
import account from './account/it.js'
import branding from './branding/it.js'
import documents from './documents/it.js'
import errors from './errors/it.js'
import send from './send/it.js'
import shell from './shell/it.js'
import team from './team/it.js'

const it: ConsoleWords = { ...shell, ...account, ...team, ...documents, ...send, ...branding, ...errors }
export default it
