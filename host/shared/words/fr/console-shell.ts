import type en from '../en/console-shell.js'

/** The frame of the console and signing in, in French. */
const fr: Record<keyof typeof en, string> = {
  'shell.title': 'Console',
  'shell.skip': 'Aller au contenu',
  'shell.nav': 'Console',
  'shell.documents': 'Documents',
  'shell.templates': 'Modèles',
  'shell.settings': 'Paramètres de l’équipe',
  'shell.account': 'Compte',
  'shell.signOut': 'Se déconnecter',
  'shell.team': 'Équipe',
  'shell.language': 'Langue',
  'shell.loading': 'Chargement…',
  'shell.cancel': 'Annuler',
  'shell.notFound': 'Cette page n’existe pas.',
  'shell.noTeam': 'Vous n’êtes membre d’aucune équipe. Demandez une invitation à un administrateur.',
  'shell.error': 'Une erreur est survenue : {message}',
  'signIn.title': 'Se connecter',
  'signIn.email': 'Adresse e-mail',
  'signIn.password': 'Mot de passe',
  'signIn.submit': 'Se connecter',
  'signIn.working': 'Connexion…',
}
export default fr
