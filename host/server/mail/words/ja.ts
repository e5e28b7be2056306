import type { MailStrings } from './en.js'

/** The e-mails' words in Japanese (polite register, as business correspondence is written). */
const ja: MailStrings = {
  quote: (t) => `「${t}」`,
  greeting: (name) => (name ? `${name} 様` : 'お客様'),
  request: {
    subject: {
      SIGNER: (t) => `「${t}」への署名のお願い`,
      APPROVER: (t) => `「${t}」の承認のお願い`,
      VIEWER: (t) => `「${t}」のご確認のお願い`,
      ASSISTANT: (t) => `「${t}」へのご記入のお願い`,
    },
    intro: {
      SIGNER: (team, t) => `${team}から「${t}」への署名の依頼が届いています。`,
      APPROVER: (team, t) => `${team}から「${t}」の承認の依頼が届いています。`,
      VIEWER: (team, t) => `${team}から「${t}」のご確認の依頼が届いています。`,
      ASSISTANT: (team, t) => `${team}から「${t}」へのご記入の依頼が届いています。`,
    },
    button: { SIGNER: '文書に署名する', APPROVER: '文書を承認する', VIEWER: '文書を確認する', ASSISTANT: '文書に記入する' },
  },
  reminder: {
    prefix: 'リマインダー：',
    intro: {
      SIGNER: (team, t) => `リマインダーです。${team}は、引き続き「${t}」へのご署名をお待ちしております。`,
      APPROVER: (team, t) => `リマインダーです。${team}は、引き続き「${t}」のご承認をお待ちしております。`,
      VIEWER: (team, t) => `リマインダーです。${team}は、引き続き「${t}」のご確認をお待ちしております。`,
      ASSISTANT: (team, t) => `リマインダーです。${team}は、引き続き「${t}」へのご記入をお待ちしております。`,
    },
  },
  messageFrom: (team) => `${team}からのメッセージ：`,
  linkFallback: 'ボタンが機能しない場合は、次のリンクを開いてください：',
  personalLink: 'このリンクはあなた専用です。このメールを転送しないでください。',
  completed: {
    subject: (t) => `「${t}」が完了しました`,
    body: (t, n) => `全員が「${t}」の手続きを完了しました。` + (n === 0 ? '' : '署名済みの文書を添付しています。'),
    again: 'このリンクからいつでも再度ダウンロードできます：',
    button: '文書を開く',
  },
  rejected: {
    subject: (name, t) => `${name}さんが「${t}」を拒否しました`,
    body: (name, t) => `${name}さんが「${t}」を拒否しました。この文書には今後署名できません。`,
  },
  cancelled: {
    subject: (t) => `「${t}」は取り消されました`,
    body: (team, t) => `${team}が「${t}」を取り消しました。この文書には今後署名できず、お手続きは不要です。`,
  },
  teamCompleted: {
    subject: (t) => `「${t}」は全員の手続きが完了しました`,
    body: (t, n) => `全員が「${t}」の手続きを完了しました。` + (n === 0 ? '' : '署名済みの文書を添付しています。'),
    who: '受信者：',
  },
  reason: '理由：',
  did: { SIGNER: '署名済み', APPROVER: '承認済み', VIEWER: '確認済み', ASSISTANT: '記入済み', CC: '写しを受領' },
  footer: (team) => `${team}に代わって送信しています。`,
  colon: '：',
  code: {
    subject: '署名用の確認コード',
    body: (t) => `「${t}」の署名ページで次のコードを入力してください：`,
    note: 'このコードは10分間、1回のみ有効です。お心当たりのない場合は、このメッセージを無視してください。',
  },
  account: (p) => ({
    verify: { subject: 'メールアドレスの確認', heading: 'メールアドレスの確認', body: 'アカウントの設定を完了するため、このアドレスがご本人のものであることを確認してください。', button: 'アドレスを確認する', note: 'このリンクは24時間、1回のみ有効です。アカウントを作成した覚えがない場合は、このメッセージを無視してください。' },
    reset: { subject: 'パスワードの再設定', heading: 'パスワードの再設定', body: 'このアドレスのアカウントについて、パスワードの再設定が依頼されました。下のリンクから新しいパスワードを設定してください。', button: '新しいパスワードを設定する', note: 'このリンクは1時間、1回のみ有効です。お心当たりのない場合は、このメッセージを無視してください。パスワードは変更されません。' },
    signin: { subject: 'サインイン用のリンク', heading: 'サインイン', body: '下のリンクからアカウントにサインインしてください。', button: 'サインインする', note: 'このリンクは15分間、1回のみ有効です。お心当たりのない場合は、このメッセージを無視してください。' },
    invite: { subject: `${p.teamName ?? 'チーム'}への招待`, heading: `${p.teamName ?? 'チーム'}への招待`, body: `${p.inviter ?? 'チームのメンバー'}から${p.teamName ?? 'チーム'}への招待が届いています。`, button: '招待を承諾する', note: 'この招待は7日間有効です。' },
  }),
}
export default ja
