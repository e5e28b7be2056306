import type en from '../en/console-shell.js'

/** The frame of the console and signing in, in Spanish. */
const es: Record<keyof typeof en, string> = {
  'shell.title': 'Consola',
  'shell.skip': 'Saltar al contenido',
  'shell.nav': 'Consola',
  'shell.documents': 'Documentos',
  'shell.templates': 'Plantillas',
  'shell.settings': 'Ajustes del equipo',
  'shell.account': 'Cuenta',
  'shell.signOut': 'Cerrar sesión',
  'shell.team': 'Equipo',
  'shell.language': 'Idioma',
  'shell.loading': 'Cargando…',
  'shell.cancel': 'Cancelar',
  'shell.notFound': 'Esta página no existe.',
  'shell.noTeam': 'Todavía no forma parte de ningún equipo. Pida una invitación a un administrador del equipo.',
  'shell.error': 'Algo ha fallado: {message}',
  'signIn.title': 'Iniciar sesión',
  'signIn.email': 'Dirección de correo',
  'signIn.password': 'Contraseña',
  'signIn.submit': 'Iniciar sesión',
  'signIn.working': 'Iniciando sesión…',
}
export default es
