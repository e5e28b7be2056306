import type en from '../en/console-shell.js'

/** The frame of the console and signing in, in Brazilian Portuguese. */
const ptBR: Record<keyof typeof en, string> = {
  'shell.title': 'Console',
  'shell.skip': 'Pular para o conteúdo',
  'shell.nav': 'Console',
  'shell.documents': 'Documentos',
  'shell.templates': 'Modelos',
  'shell.settings': 'Configurações da equipe',
  'shell.account': 'Conta',
  'shell.signOut': 'Sair',
  'shell.team': 'Equipe',
  'shell.language': 'Idioma',
  'shell.loading': 'Carregando…',
  'shell.cancel': 'Cancelar',
  'shell.notFound': 'Esta página não existe.',
  'shell.noTeam': 'Você ainda não faz parte de nenhuma equipe. Peça um convite a um administrador da equipe.',
  'shell.error': 'Algo deu errado: {message}',
  'signIn.title': 'Entrar',
  'signIn.email': 'Endereço de e-mail',
  'signIn.password': 'Senha',
  'signIn.submit': 'Entrar',
  'signIn.working': 'Entrando…',
}
export default ptBR
