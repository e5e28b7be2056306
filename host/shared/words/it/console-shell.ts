import type en from '../en/console-shell.js'

/** The frame of the console and signing in, in Italian. */
const it: Record<keyof typeof en, string> = {
  'shell.title': 'Console',
  'shell.skip': 'Vai al contenuto',
  'shell.nav': 'Console',
  'shell.documents': 'Documenti',
  'shell.templates': 'Modelli',
  'shell.settings': 'Impostazioni del team',
  'shell.account': 'Account',
  'shell.signOut': 'Esci',
  'shell.team': 'Team',
  'shell.language': 'Lingua',
  'shell.loading': 'Caricamento…',
  'shell.cancel': 'Annulla',
  'shell.notFound': 'Questa pagina non esiste.',
  'shell.noTeam': 'Non fai ancora parte di nessun team. Chiedi un invito a un amministratore del team.',
  'shell.error': 'Qualcosa è andato storto: {message}',
  'signIn.title': 'Accedi',
  'signIn.email': 'Indirizzo e-mail',
  'signIn.password': 'Password',
  'signIn.submit': 'Accedi',
  'signIn.working': 'Accesso in corso…',
}
export default it
