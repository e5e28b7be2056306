/** The console's words in Polish, every area's: loaded when the console speaks it. */
import type { ConsoleWords } from './en.js'
import account from './account/pl.js'
import branding from './branding/pl.js'
import documents from './documents/pl.js'
import errors from './errors/pl.js'
import send from './send/pl.js'
import shell from './shell/pl.js'
import team from './team/pl.js'

const pl: ConsoleWords = { ...shell, ...account, ...team, ...documents, ...send, ...branding, ...errors }
export default pl
