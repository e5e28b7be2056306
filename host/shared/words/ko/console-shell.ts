import type en from '../en/console-shell.js'

/** The frame of the console and signing in, in Korean. */
const ko: Record<keyof typeof en, string> = {
  'shell.title': '콘솔',
  'shell.skip': '본문으로 건너뛰기',
  'shell.nav': '콘솔',
  'shell.documents': '문서',
  'shell.templates': '템플릿',
  'shell.settings': '팀 설정',
  'shell.account': '계정',
  'shell.signOut': '로그아웃',
  'shell.team': '팀',
  'shell.language': '언어',
  'shell.loading': '불러오는 중…',
  'shell.cancel': '취소',
  'shell.notFound': '해당 페이지가 없습니다.',
  'shell.noTeam': '아직 어떤 팀에도 속해 있지 않습니다. 팀 관리자에게 초대를 요청하십시오.',
  'shell.error': '문제가 발생했습니다: {message}',
  'signIn.title': '로그인',
  'signIn.email': '이메일 주소',
  'signIn.password': '비밀번호',
  'signIn.submit': '로그인',
  'signIn.working': '로그인하는 중…',
}
export default ko
