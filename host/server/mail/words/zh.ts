import type { MailStrings } from './en.js'

/** The e-mails' words in Chinese (Simplified, formal register). */
const zh: MailStrings = {
  quote: (t) => `“${t}”`,
  greeting: (name) => (name ? `${name}，您好：` : '您好：'),
  request: {
    subject: {
      SIGNER: (t) => `请签署“${t}”`,
      APPROVER: (t) => `请审批“${t}”`,
      VIEWER: (t) => `请查阅“${t}”`,
      ASSISTANT: (t) => `请填写“${t}”`,
    },
    intro: {
      SIGNER: (team, t) => `${team}向您发送了“${t}”，请您签署。`,
      APPROVER: (team, t) => `${team}向您发送了“${t}”，请您审批。`,
      VIEWER: (team, t) => `${team}向您发送了“${t}”，请您查阅。`,
      ASSISTANT: (team, t) => `${team}请您填写“${t}”。`,
    },
    button: { SIGNER: '签署文件', APPROVER: '审批文件', VIEWER: '查阅文件', ASSISTANT: '填写文件' },
  },
  reminder: {
    prefix: '提醒：',
    intro: {
      SIGNER: (team, t) => `温馨提醒：${team}仍在等待您签署“${t}”。`,
      APPROVER: (team, t) => `温馨提醒：${team}仍在等待您审批“${t}”。`,
      VIEWER: (team, t) => `温馨提醒：${team}仍在等待您查阅“${t}”。`,
      ASSISTANT: (team, t) => `温馨提醒：${team}仍在等待您填写“${t}”。`,
    },
  },
  messageFrom: (team) => `${team}留言：`,
  linkFallback: '如果按钮无法使用，请打开以下链接：',
  personalLink: '此链接仅供您本人使用，请勿转发此邮件。',
  completed: {
    subject: (t) => `“${t}”已完成`,
    body: (t, n) => `所有人均已完成“${t}”。` + (n === 0 ? '' : '已签署的文件附在邮件中。'),
    again: '您可随时通过以下链接再次下载：',
    button: '打开文件',
  },
  rejected: {
    subject: (name, t) => `${name}拒绝了“${t}”`,
    body: (name, t) => `${name}拒绝了“${t}”。该文件已无法再签署。`,
  },
  cancelled: {
    subject: (t) => `“${t}”已取消`,
    body: (team, t) => `${team}已取消“${t}”。该文件已无法再签署，您无需再进行任何操作。`,
  },
  teamCompleted: {
    subject: (t) => `所有人均已完成“${t}”`,
    body: (t, n) => `所有人均已完成“${t}”。` + (n === 0 ? '' : '已签署的文件附在邮件中。'),
    who: '收件人：',
  },
  reason: '原因：',
  did: { SIGNER: '已签署', APPROVER: '已审批', VIEWER: '已查阅', ASSISTANT: '已填写', CC: '已收到副本' },
  footer: (team) => `代表${team}发送。`,
  colon: '：',
  code: {
    subject: '您的签署验证码',
    body: (t) => `请在“${t}”的签署页面输入以下验证码：`,
    note: '此验证码 10 分钟内有效，仅可使用一次。如果您未曾申请，请忽略此邮件。',
  },
  account: (p) => ({
    verify: { subject: '确认您的电子邮件地址', heading: '确认您的电子邮件地址', body: '请确认此地址归您所有，以完成账户设置。', button: '确认地址', note: '此链接 24 小时内有效，仅可使用一次。如果您未曾创建账户，请忽略此邮件。' },
    reset: { subject: '重置您的密码', heading: '重置您的密码', body: '有人申请重置使用此地址的账户的密码。请通过下方链接设置新密码。', button: '设置新密码', note: '此链接 1 小时内有效，仅可使用一次。如果您未曾申请，请忽略此邮件，您的密码将保持不变。' },
    signin: { subject: '您的登录链接', heading: '登录', body: '请使用下方链接登录您的账户。', button: '登录', note: '此链接 15 分钟内有效，仅可使用一次。如果您未曾申请，请忽略此邮件。' },
    invite: { subject: `加入${p.teamName ?? '团队'}`, heading: `加入${p.teamName ?? '团队'}`, body: `${p.inviter ?? '一位团队成员'}邀请您加入${p.teamName ?? '其团队'}。`, button: '接受邀请', note: '此邀请 7 天内有效。' },
  }),
}
export default zh
