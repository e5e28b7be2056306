import type { MailStrings } from './en.js'

// French typography: a no-break space inside « » and before : ; ? !
const nb = '\u00a0'

/** The e-mails' words in French. */
const fr: MailStrings = {
  quote: (t) => `«${nb}${t}${nb}»`,
  greeting: (name) => (name ? `Bonjour ${name},` : 'Bonjour,'),
  request: {
    subject: {
      SIGNER: (t) => `Veuillez signer «${nb}${t}${nb}»`,
      APPROVER: (t) => `Veuillez approuver «${nb}${t}${nb}»`,
      VIEWER: (t) => `Veuillez consulter «${nb}${t}${nb}»`,
      ASSISTANT: (t) => `Veuillez remplir «${nb}${t}${nb}»`,
    },
    intro: {
      SIGNER: (team, t) => `${team} vous a envoyé «${nb}${t}${nb}» à signer.`,
      APPROVER: (team, t) => `${team} vous a envoyé «${nb}${t}${nb}» à approuver.`,
      VIEWER: (team, t) => `${team} vous a envoyé «${nb}${t}${nb}» à consulter.`,
      ASSISTANT: (team, t) => `${team} vous demande de remplir «${nb}${t}${nb}».`,
    },
    button: { SIGNER: 'Signer le document', APPROVER: 'Approuver le document', VIEWER: 'Consulter le document', ASSISTANT: 'Remplir le document' },
  },
  reminder: {
    prefix: `Rappel${nb}: `,
    intro: {
      SIGNER: (team, t) => `Pour rappel, ${team} attend toujours votre signature de «${nb}${t}${nb}».`,
      APPROVER: (team, t) => `Pour rappel, ${team} attend toujours votre approbation de «${nb}${t}${nb}».`,
      VIEWER: (team, t) => `Pour rappel, ${team} attend toujours que vous consultiez «${nb}${t}${nb}».`,
      ASSISTANT: (team, t) => `Pour rappel, ${team} attend toujours que vous remplissiez «${nb}${t}${nb}».`,
    },
  },
  messageFrom: (team) => `Message de ${team}${nb}:`,
  linkFallback: `Si le bouton ne fonctionne pas, ouvrez ce lien${nb}:`,
  personalLink: `Ce lien vous est personnel${nb}: merci de ne pas transférer cet e-mail.`,
  completed: {
    subject: (t) => `«${nb}${t}${nb}» est terminé`,
    body: (t, n) =>
      `Tous les participants ont terminé «${nb}${t}${nb}».` +
      (n === 0 ? '' : n === 1 ? ' Le document signé est joint.' : ' Les documents signés sont joints.'),
    again: `Vous pouvez le télécharger à nouveau à tout moment via ce lien${nb}:`,
    button: 'Ouvrir le document',
  },
  rejected: {
    subject: (name, t) => `${name} a refusé «${nb}${t}${nb}»`,
    body: (name, t) => `${name} a refusé «${nb}${t}${nb}». Le document ne peut plus être signé.`,
  },
  cancelled: {
    subject: (t) => `«${nb}${t}${nb}» a été annulé`,
    body: (team, t) => `${team} a annulé «${nb}${t}${nb}». Il ne peut plus être signé et vous n’avez plus rien à faire.`,
  },
  teamCompleted: {
    subject: (t) => `«${nb}${t}${nb}» a été complété par tous`,
    body: (t, n) =>
      `Tous les participants ont terminé «${nb}${t}${nb}».` +
      (n === 0 ? '' : n === 1 ? ' Le document signé est joint.' : ' Les documents signés sont joints.'),
    who: `Destinataires${nb}:`,
  },
  reason: `Motif${nb}:`,
  did: { SIGNER: 'a signé', APPROVER: 'a approuvé', VIEWER: 'a consulté', ASSISTANT: 'a rempli', CC: 'a reçu une copie' },
  footer: (team) => `Message envoyé par ${team}.`,
  colon: `${nb}:`,
  code: {
    subject: 'Votre code de signature',
    body: (t) => `Saisissez ce code sur la page de signature de « ${t} » :`,
    note: 'Le code fonctionne une fois, pendant 10 minutes. Si vous ne l’avez pas demandé, ignorez ce message.',
  },
  account: (p) => ({
    verify: { subject: 'Confirmez votre adresse e-mail', heading: 'Confirmez votre adresse e-mail', body: 'Confirmez que cette adresse est la vôtre pour terminer la création de votre compte.', button: 'Confirmer l’adresse', note: 'Le lien fonctionne une fois, pendant 24 heures. Si vous n’avez pas créé de compte, ignorez ce message.' },
    reset: { subject: 'Réinitialiser votre mot de passe', heading: 'Réinitialiser votre mot de passe', body: 'Quelqu’un a demandé à réinitialiser le mot de passe du compte lié à cette adresse. Choisissez un nouveau mot de passe avec le lien ci-dessous.', button: 'Choisir un nouveau mot de passe', note: 'Le lien fonctionne une fois, pendant une heure. Si vous ne l’avez pas demandé, ignorez ce message.' },
    signin: { subject: 'Votre lien de connexion', heading: 'Se connecter', body: 'Utilisez le lien ci-dessous pour vous connecter à votre compte.', button: 'Se connecter', note: 'Le lien fonctionne une fois, pendant 15 minutes. Si vous ne l’avez pas demandé, ignorez ce message.' },
    invite: { subject: `Rejoindre ${p.teamName ?? 'une équipe'}`, heading: `Rejoindre ${p.teamName ?? 'une équipe'}`, body: `${p.inviter ?? 'Un membre de l’équipe'} vous invite à rejoindre ${p.teamName ?? 'son équipe'}.`, button: 'Accepter l’invitation', note: 'L’invitation est valable 7 jours.' },
  }),
}
export default fr
