/**
 * The team console (`/console`): people signed in to the service see their team's documents and
 * templates and run the team's settings. Its own chunk, loaded by main.tsx on /console paths;
 * it shares the app's styles and parts with the authoring and signing pages.
 */
import type { Root } from 'react-dom/client'
import { ConsoleApp } from './ConsoleApp.js'
import { consoleLanguage, loadConsoleLanguage, setConsoleLanguage } from './i18n/index.js'
import './console.css'

export function mount(root: Root): void {
  document.title = 'Envelope console'
  const language = consoleLanguage()
  void loadConsoleLanguage(language).then(() => {
    setConsoleLanguage(language)
    root.render(<ConsoleApp />)
  })
}
