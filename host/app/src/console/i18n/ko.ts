/** The console's words in Korean, every area's: loaded when the console speaks it. */
import type { ConsoleWords } from './en.js'
import account from './account/ko.js'
import branding from './branding/ko.js'
import documents from './documents/ko.js'
import errors from './errors/ko.js'
import send from './send/ko.js'
import shell from './shell/ko.js'
import team from './team/ko.js'

const ko: ConsoleWords = { ...shell, ...account, ...team, ...documents, ...send, ...branding, ...errors }
export default ko
