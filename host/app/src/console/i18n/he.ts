/** The console's words in Hebrew, every area's: loaded when the console speaks it. */
import type { ConsoleWords } from './en.js'
import account from './account/he.js'
import branding from './branding/he.js'
import documents from './documents/he.js'
import errors from './errors/he.js'
import send from './send/he.js'
import shell from './shell/he.js'
import team from './team/he.js'

const he: ConsoleWords = { ...shell, ...account, ...team, ...documents, ...send, ...branding, ...errors }
export default he
