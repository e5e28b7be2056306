import type { AreaMessages } from './index.js'

/** The account screens' words. */
const messages: AreaMessages = {
  en: {},
  de: {},
  fr: {},
}
export default messages
