import type { MailStrings } from './en.js'

/** The e-mails' words in Korean (formal register). */
const ko: MailStrings = {
  quote: (t) => `“${t}”`,
  greeting: (name) => (name ? `${name} 님, 안녕하세요.` : '안녕하세요.'),
  request: {
    subject: {
      SIGNER: (t) => `“${t}” 서명 요청`,
      APPROVER: (t) => `“${t}” 승인 요청`,
      VIEWER: (t) => `“${t}” 검토 요청`,
      ASSISTANT: (t) => `“${t}” 작성 요청`,
    },
    intro: {
      SIGNER: (team, t) => `${team}에서 서명을 위해 “${t}”을(를) 보냈습니다.`,
      APPROVER: (team, t) => `${team}에서 승인을 위해 “${t}”을(를) 보냈습니다.`,
      VIEWER: (team, t) => `${team}에서 검토를 위해 “${t}”을(를) 보냈습니다.`,
      ASSISTANT: (team, t) => `${team}에서 “${t}”의 작성을 요청했습니다.`,
    },
    button: { SIGNER: '문서 서명하기', APPROVER: '문서 승인하기', VIEWER: '문서 검토하기', ASSISTANT: '문서 작성하기' },
  },
  reminder: {
    prefix: '알림: ',
    intro: {
      SIGNER: (team, t) => `다시 알려 드립니다. ${team}에서 “${t}”에 대한 서명을 기다리고 있습니다.`,
      APPROVER: (team, t) => `다시 알려 드립니다. ${team}에서 “${t}”에 대한 승인을 기다리고 있습니다.`,
      VIEWER: (team, t) => `다시 알려 드립니다. ${team}에서 “${t}”에 대한 검토를 기다리고 있습니다.`,
      ASSISTANT: (team, t) => `다시 알려 드립니다. ${team}에서 “${t}”의 작성을 기다리고 있습니다.`,
    },
  },
  messageFrom: (team) => `${team}의 메시지:`,
  linkFallback: '버튼이 작동하지 않으면 다음 링크를 여십시오:',
  personalLink: '이 링크는 귀하 전용입니다. 이 이메일을 전달하지 마십시오.',
  completed: {
    subject: (t) => `“${t}”이(가) 완료되었습니다`,
    body: (t, n) => `모든 참여자가 “${t}”을(를) 완료했습니다.` + (n === 0 ? '' : ' 서명된 문서를 첨부했습니다.'),
    again: '이 링크에서 언제든지 다시 다운로드할 수 있습니다:',
    button: '문서 열기',
  },
  rejected: {
    subject: (name, t) => `${name} 님이 “${t}”을(를) 거부했습니다`,
    body: (name, t) => `${name} 님이 “${t}”을(를) 거부했습니다. 이 문서는 더 이상 서명할 수 없습니다.`,
  },
  cancelled: {
    subject: (t) => `“${t}”이(가) 취소되었습니다`,
    body: (team, t) => `${team}에서 “${t}”을(를) 취소했습니다. 더 이상 서명할 수 없으며, 귀하께서 하실 일은 없습니다.`,
  },
  teamCompleted: {
    subject: (t) => `모든 참여자가 “${t}”을(를) 완료했습니다`,
    body: (t, n) => `모든 참여자가 “${t}”을(를) 완료했습니다.` + (n === 0 ? '' : ' 서명된 문서를 첨부했습니다.'),
    who: '수신자:',
  },
  reason: '사유:',
  did: { SIGNER: '서명함', APPROVER: '승인함', VIEWER: '검토함', ASSISTANT: '작성함', CC: '사본 수신' },
  footer: (team) => `${team}을(를) 대신하여 발송되었습니다.`,
  colon: ':',
  code: {
    subject: '서명 인증 코드',
    body: (t) => `“${t}”의 서명 페이지에 이 코드를 입력하십시오:`,
    note: '이 코드는 10분 동안 한 번만 사용할 수 있습니다. 요청하지 않으셨다면 이 메시지를 무시하십시오.',
  },
  account: (p) => ({
    verify: { subject: '이메일 주소 확인', heading: '이메일 주소 확인', body: '계정 설정을 마치려면 이 주소가 본인의 주소인지 확인해 주십시오.', button: '주소 확인', note: '이 링크는 24시간 동안 한 번만 사용할 수 있습니다. 계정을 만들지 않으셨다면 이 메시지를 무시하십시오.' },
    reset: { subject: '비밀번호 재설정', heading: '비밀번호 재설정', body: '이 주소의 계정에 대해 비밀번호 재설정이 요청되었습니다. 아래 링크에서 새 비밀번호를 설정하십시오.', button: '새 비밀번호 설정', note: '이 링크는 1시간 동안 한 번만 사용할 수 있습니다. 요청하지 않으셨다면 이 메시지를 무시하십시오. 비밀번호는 변경되지 않습니다.' },
    signin: { subject: '로그인 링크', heading: '로그인', body: '아래 링크를 사용하여 계정에 로그인하십시오.', button: '로그인', note: '이 링크는 15분 동안 한 번만 사용할 수 있습니다. 요청하지 않으셨다면 이 메시지를 무시하십시오.' },
    invite: { subject: `${p.teamName ?? '팀'}에 참여하기`, heading: `${p.teamName ?? '팀'}에 참여하기`, body: `${p.inviter ?? '팀 구성원'} 님이 ${p.teamName ?? '팀'}에 귀하를 초대했습니다.`, button: '초대 수락', note: '초대는 7일 동안 유효합니다.' },
  }),
}
export default ko
