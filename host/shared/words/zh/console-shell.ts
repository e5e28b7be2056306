import type en from '../en/console-shell.js'

/** The frame of the console and signing in, in Chinese (Simplified). */
const zh: Record<keyof typeof en, string> = {
  'shell.title': '控制台',
  'shell.skip': '跳到主要内容',
  'shell.nav': '控制台',
  'shell.documents': '文件',
  'shell.templates': '模板',
  'shell.settings': '团队设置',
  'shell.account': '账户',
  'shell.signOut': '退出登录',
  'shell.team': '团队',
  'shell.language': '语言',
  'shell.loading': '正在加载…',
  'shell.cancel': '取消',
  'shell.notFound': '该页面不存在。',
  'shell.noTeam': '您尚未加入任何团队。请向团队管理员索取邀请。',
  'shell.error': '出现问题：{message}',
  'signIn.title': '登录',
  'signIn.email': '电子邮件地址',
  'signIn.password': '密码',
  'signIn.submit': '登录',
  'signIn.working': '正在登录…',
}
export default zh
