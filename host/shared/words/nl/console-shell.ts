import type en from '../en/console-shell.js'

/** The frame of the console and signing in, in Dutch. */
const nl: Record<keyof typeof en, string> = {
  'shell.title': 'Console',
  'shell.skip': 'Naar de inhoud',
  'shell.nav': 'Console',
  'shell.documents': 'Documenten',
  'shell.templates': 'Sjablonen',
  'shell.settings': 'Teaminstellingen',
  'shell.account': 'Account',
  'shell.signOut': 'Uitloggen',
  'shell.team': 'Team',
  'shell.language': 'Taal',
  'shell.loading': 'Laden…',
  'shell.cancel': 'Annuleren',
  'shell.notFound': 'Deze pagina bestaat niet.',
  'shell.noTeam': 'U bent nog geen lid van een team. Vraag een teambeheerder om een uitnodiging.',
  'shell.error': 'Er is iets misgegaan: {message}',
  'signIn.title': 'Inloggen',
  'signIn.email': 'E-mailadres',
  'signIn.password': 'Wachtwoord',
  'signIn.submit': 'Inloggen',
  'signIn.working': 'Bezig met inloggen…',
}
export default nl
