/** The frame of the console and signing in, in English: these keys are the ones every language has. */
const en = {
  'shell.title': 'Console',
  'shell.skip': 'Skip to content',
  'shell.nav': 'Console',
  'shell.documents': 'Documents',
  'shell.templates': 'Templates',
  'shell.settings': 'Team settings',
  'shell.account': 'Account',
  'shell.signOut': 'Sign out',
  'shell.team': 'Team',
  'shell.language': 'Language',
  'shell.loading': 'Loading…',
  'shell.cancel': 'Cancel',
  'shell.notFound': 'There is no such page.',
  'shell.noTeam': 'You are not a member of any team yet. Ask a team admin for an invitation.',
  'shell.error': 'Something went wrong: {message}',
  'signIn.title': 'Sign in',
  'signIn.email': 'E-mail address',
  'signIn.password': 'Password',
  'signIn.submit': 'Sign in',
  'signIn.working': 'Signing in…',
}
export default en
