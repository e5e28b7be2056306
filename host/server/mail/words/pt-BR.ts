import type { MailStrings } from './en.js'

/** The e-mails' words in Brazilian Portuguese. */
const ptBR: MailStrings = {
  quote: (t) => `“${t}”`,
  greeting: (name) => (name ? `Olá, ${name},` : 'Olá,'),
  request: {
    subject: {
      SIGNER: (t) => `Por favor, assine “${t}”`,
      APPROVER: (t) => `Por favor, aprove “${t}”`,
      VIEWER: (t) => `Por favor, revise “${t}”`,
      ASSISTANT: (t) => `Por favor, preencha “${t}”`,
    },
    intro: {
      SIGNER: (team, t) => `${team} enviou “${t}” para você assinar.`,
      APPROVER: (team, t) => `${team} enviou “${t}” para você aprovar.`,
      VIEWER: (team, t) => `${team} enviou “${t}” para você revisar.`,
      ASSISTANT: (team, t) => `${team} pede que você preencha “${t}”.`,
    },
    button: { SIGNER: 'Assinar o documento', APPROVER: 'Aprovar o documento', VIEWER: 'Revisar o documento', ASSISTANT: 'Preencher o documento' },
  },
  reminder: {
    prefix: 'Lembrete: ',
    intro: {
      SIGNER: (team, t) => `Este é um lembrete: ${team} ainda aguarda a sua assinatura em “${t}”.`,
      APPROVER: (team, t) => `Este é um lembrete: ${team} ainda aguarda a sua aprovação de “${t}”.`,
      VIEWER: (team, t) => `Este é um lembrete: ${team} ainda aguarda que você revise “${t}”.`,
      ASSISTANT: (team, t) => `Este é um lembrete: ${team} ainda aguarda que você preencha “${t}”.`,
    },
  },
  messageFrom: (team) => `${team} escreve:`,
  linkFallback: 'Se o botão não funcionar, abra este link:',
  personalLink: 'Este link é pessoal: não encaminhe este e-mail.',
  completed: {
    subject: (t) => `“${t}” está concluído`,
    body: (t, n) =>
      `Todos concluíram “${t}”.` + (n === 0 ? '' : n === 1 ? ' O documento assinado está anexado.' : ' Os documentos assinados estão anexados.'),
    again: 'Você pode baixá-lo novamente a qualquer momento por este link:',
    button: 'Abrir o documento',
  },
  rejected: {
    subject: (name, t) => `${name} recusou “${t}”`,
    body: (name, t) => `${name} recusou “${t}”. O documento não pode mais ser assinado.`,
  },
  cancelled: {
    subject: (t) => `“${t}” foi cancelado`,
    body: (team, t) => `${team} cancelou “${t}”. Ele não pode mais ser assinado, e você não precisa fazer mais nada.`,
  },
  teamCompleted: {
    subject: (t) => `“${t}” foi concluído por todos`,
    body: (t, n) =>
      `Todos concluíram “${t}”.` + (n === 0 ? '' : n === 1 ? ' O documento assinado está anexado.' : ' Os documentos assinados estão anexados.'),
    who: 'Destinatários:',
  },
  reason: 'Motivo:',
  did: { SIGNER: 'assinou', APPROVER: 'aprovou', VIEWER: 'visualizou', ASSISTANT: 'preencheu', CC: 'recebeu uma cópia' },
  footer: (team) => `Enviado em nome de ${team}.`,
  colon: ':',
  code: {
    subject: 'Seu código de assinatura',
    body: (t) => `Informe este código na página de assinatura de “${t}”:`,
    note: 'O código funciona uma vez, por 10 minutos. Se você não o pediu, ignore esta mensagem.',
  },
  account: (p) => ({
    verify: { subject: 'Confirme seu endereço de e-mail', heading: 'Confirme seu endereço de e-mail', body: 'Confirme que este endereço é seu para terminar de configurar sua conta.', button: 'Confirmar o endereço', note: 'O link funciona uma vez, por 24 horas. Se você não criou uma conta, ignore esta mensagem.' },
    reset: { subject: 'Redefina sua senha', heading: 'Redefina sua senha', body: 'Alguém pediu para redefinir a senha da conta com este endereço. Escolha uma nova senha pelo link abaixo.', button: 'Escolher uma nova senha', note: 'O link funciona uma vez, por uma hora. Se você não pediu, ignore esta mensagem: sua senha continua a mesma.' },
    signin: { subject: 'Seu link de acesso', heading: 'Entrar', body: 'Use o link abaixo para entrar na sua conta.', button: 'Entrar', note: 'O link funciona uma vez, por 15 minutos. Se você não pediu, ignore esta mensagem.' },
    invite: { subject: `Entre em ${p.teamName ?? 'uma equipe'}`, heading: `Entre em ${p.teamName ?? 'uma equipe'}`, body: `${p.inviter ?? 'Um membro da equipe'} convidou você para entrar em ${p.teamName ?? 'sua equipe'}.`, button: 'Aceitar o convite', note: 'O convite é válido por 7 dias.' },
  }),
}
export default ptBR
