/** The console's words in Japanese, every area's: loaded when the console speaks it. */
import type { ConsoleWords } from './en.js'
import account from './account/ja.js'
import branding from './branding/ja.js'
import documents from './documents/ja.js'
import errors from './errors/ja.js'
import send from './send/ja.js'
import shell from './shell/ja.js'
import team from './team/ja.js'

const ja: ConsoleWords = { ...shell, ...account, ...team, ...documents, ...send, ...branding, ...errors }
export default ja
