/** The console's words in English, every area's: these keys are the ones every language has. */
import account from './account/en.js'
import branding from './branding/en.js'
import documents from './documents/en.js'
import errors from './errors/en.js'
import send from './send/en.js'
import shell from './shell/en.js'
import team from './team/en.js'

const en = { ...shell, ...account, ...team, ...documents, ...send, ...branding, ...errors }
export default en
export type ConsoleKey = keyof typeof en
export type ConsoleWords = Record<ConsoleKey, string>
