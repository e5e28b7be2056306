import type en from '../en/console-shell.js'

/** The frame of the console and signing in, in Polish. */
const pl: Record<keyof typeof en, string> = {
  'shell.title': 'Konsola',
  'shell.skip': 'Przejdź do treści',
  'shell.nav': 'Konsola',
  'shell.documents': 'Dokumenty',
  'shell.templates': 'Szablony',
  'shell.settings': 'Ustawienia zespołu',
  'shell.account': 'Konto',
  'shell.signOut': 'Wyloguj się',
  'shell.team': 'Zespół',
  'shell.language': 'Język',
  'shell.loading': 'Wczytywanie…',
  'shell.cancel': 'Anuluj',
  'shell.notFound': 'Nie ma takiej strony.',
  'shell.noTeam': 'Nie należysz jeszcze do żadnego zespołu. Poproś administratora zespołu o zaproszenie.',
  'shell.error': 'Coś poszło nie tak: {message}',
  'signIn.title': 'Zaloguj się',
  'signIn.email': 'Adres e-mail',
  'signIn.password': 'Hasło',
  'signIn.submit': 'Zaloguj się',
  'signIn.working': 'Logowanie…',
}
export default pl
