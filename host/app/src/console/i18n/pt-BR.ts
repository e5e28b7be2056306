/** The console's words in Brazilian Portuguese, every area's: loaded when the console speaks it. */
import type { ConsoleWords } from './en.js'
import account from './account/pt-BR.js'
import branding from './branding/pt-BR.js'
import documents from './documents/pt-BR.js'
import errors from './errors/pt-BR.js'
import send from './send/pt-BR.js'
import shell from './shell/pt-BR.js'
import team from './team/pt-BR.js'

const ptBR: ConsoleWords = { ...shell, ...account, ...team, ...documents, ...send, ...branding, ...errors }
export default ptBR
