/** The console's words in German, every area's: loaded when the console speaks it. */
import type { ConsoleWords } from './en.js'
import account from './account/de.js'
import branding from './branding/de.js'
import documents from './documents/de.js'
import errors from './errors/de.js'
import send from './send/de.js'
import shell from './shell/de.js'
import team from './team/de.js'

const de: ConsoleWords = { ...shell, ...account, ...team, ...documents, ...send, ...branding, ...errors }
export default de
