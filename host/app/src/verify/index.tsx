/**
 * The public verification page (`/verify`): anyone drops a PDF and reads whether its signatures
 * are intact and cover the whole file, when it was sealed and timestamped, by which certificate,
 * and which completed document of this service it is. Loaded as its own chunk by main.tsx; the
 * file goes to POST /api/v2/verify and is kept nowhere.
 */
import type { Root } from 'react-dom/client'
import { directionOf } from '../../../shared/languages.js'
import { VerifyPage } from './VerifyPage.js'
import { verifyLanguage, vt } from './words.js'
import './verify.css'

export function mount(root: Root): void {
  document.title = vt('title')
  document.documentElement.lang = verifyLanguage
  document.documentElement.dir = directionOf(verifyLanguage)
  root.render(<VerifyPage />)
}
