import type { AreaMessages } from './index.js'

/** The team screens' words. */
const messages: AreaMessages = {
  en: {},
  de: {},
  fr: {},
}
export default messages
