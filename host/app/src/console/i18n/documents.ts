import type { AreaMessages } from './index.js'

/** The documents screens' words. */
const messages: AreaMessages = {
  en: {},
  de: {},
  fr: {},
}
export default messages
