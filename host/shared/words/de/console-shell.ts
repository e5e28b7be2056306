import type en from '../en/console-shell.js'

/** The frame of the console and signing in, in German. */
const de: Record<keyof typeof en, string> = {
  'shell.title': 'Konsole',
  'shell.skip': 'Zum Inhalt springen',
  'shell.nav': 'Konsole',
  'shell.documents': 'Dokumente',
  'shell.templates': 'Vorlagen',
  'shell.settings': 'Team-Einstellungen',
  'shell.account': 'Konto',
  'shell.signOut': 'Abmelden',
  'shell.team': 'Team',
  'shell.language': 'Sprache',
  'shell.loading': 'Wird geladen…',
  'shell.cancel': 'Abbrechen',
  'shell.notFound': 'Diese Seite gibt es nicht.',
  'shell.noTeam': 'Sie sind noch in keinem Team. Bitten Sie eine Team-Administration um eine Einladung.',
  'shell.error': 'Etwas ist schiefgegangen: {message}',
  'signIn.title': 'Anmelden',
  'signIn.email': 'E-Mail-Adresse',
  'signIn.password': 'Passwort',
  'signIn.submit': 'Anmelden',
  'signIn.working': 'Anmeldung läuft…',
}
export default de
