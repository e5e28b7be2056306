import type en from '../en/console-shell.js'

/** The frame of the console and signing in, in Japanese. */
const ja: Record<keyof typeof en, string> = {
  'shell.title': 'コンソール',
  'shell.skip': 'コンテンツへ移動',
  'shell.nav': 'コンソール',
  'shell.documents': '文書',
  'shell.templates': 'テンプレート',
  'shell.settings': 'チーム設定',
  'shell.account': 'アカウント',
  'shell.signOut': 'サインアウト',
  'shell.team': 'チーム',
  'shell.language': '言語',
  'shell.loading': '読み込んでいます…',
  'shell.cancel': 'キャンセル',
  'shell.notFound': 'このページは存在しません。',
  'shell.noTeam': 'まだどのチームにも所属していません。チームの管理者に招待を依頼してください。',
  'shell.error': '問題が発生しました：{message}',
  'signIn.title': 'サインイン',
  'signIn.email': 'メールアドレス',
  'signIn.password': 'パスワード',
  'signIn.submit': 'サインイン',
  'signIn.working': 'サインインしています…',
}
export default ja
