/** The console's words in Chinese (Simplified), every area's: loaded when the console speaks it. */
import type { ConsoleWords } from './en.js'
import account from './account/zh.js'
import branding from './branding/zh.js'
import documents from './documents/zh.js'
import errors from './errors/zh.js'
import send from './send/zh.js'
import shell from './shell/zh.js'
import team from './team/zh.js'

const zh: ConsoleWords = { ...shell, ...account, ...team, ...documents, ...send, ...branding, ...errors }
export default zh
