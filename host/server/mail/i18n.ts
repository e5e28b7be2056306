/**
 * The words of the service's e-mails in every language it speaks. Every value is plain text: the
 * templates escape it. Titles are quoted the way each language quotes.
 */
import { languageOf, type Language } from '../../shared/languages.js'

export type MailLanguage = Language

/** The roles that act on a document; CC gets no signing request and falls back to VIEWER. */
export type ActingRole = 'SIGNER' | 'APPROVER' | 'VIEWER' | 'ASSISTANT'

export interface MailStrings {
  /** The title as quoted in running text. */
  quote: (title: string) => string
  greeting: (name: string | null) => string
  request: {
    subject: Record<ActingRole, (t: string) => string>
    intro: Record<ActingRole, (team: string, t: string) => string>
    button: Record<ActingRole, string>
  }
  reminder: {
    /** Put before the subject, custom or default. */
    prefix: string
    intro: Record<ActingRole, (team: string, t: string) => string>
  }
  /** Above the team's own words (documentMeta.message). */
  messageFrom: (team: string) => string
  linkFallback: string
  personalLink: string
  completed: {
    subject: (t: string) => string
    body: (t: string, files: number) => string
    again: string
    button: string
  }
  rejected: {
    subject: (name: string, t: string) => string
    body: (name: string, t: string) => string
  }
  cancelled: {
    subject: (t: string) => string
    body: (team: string, t: string) => string
  }
  teamCompleted: {
    subject: (t: string) => string
    body: (t: string, files: number) => string
    who: string
  }
  reason: string
  /** What each role did, in the team's completion notice. */
  did: Record<ActingRole | 'CC', string>
  footer: (team: string) => string
  /** Before a bare link in the text part ("Sign the document:"). */
  colon: string
}

const en: MailStrings = {
  quote: (t) => `“${t}”`,
  greeting: (name) => (name ? `Hello ${name},` : 'Hello,'),
  request: {
    subject: {
      SIGNER: (t) => `Please sign “${t}”`,
      APPROVER: (t) => `Please approve “${t}”`,
      VIEWER: (t) => `Please review “${t}”`,
      ASSISTANT: (t) => `Please fill in “${t}”`,
    },
    intro: {
      SIGNER: (team, t) => `${team} has sent you “${t}” to sign.`,
      APPROVER: (team, t) => `${team} has sent you “${t}” to approve.`,
      VIEWER: (team, t) => `${team} has sent you “${t}” to review.`,
      ASSISTANT: (team, t) => `${team} asks you to fill in “${t}”.`,
    },
    button: { SIGNER: 'Sign the document', APPROVER: 'Approve the document', VIEWER: 'Review the document', ASSISTANT: 'Fill in the document' },
  },
  reminder: {
    prefix: 'Reminder: ',
    intro: {
      SIGNER: (team, t) => `This is a reminder: ${team} is still waiting for you to sign “${t}”.`,
      APPROVER: (team, t) => `This is a reminder: ${team} is still waiting for you to approve “${t}”.`,
      VIEWER: (team, t) => `This is a reminder: ${team} is still waiting for you to review “${t}”.`,
      ASSISTANT: (team, t) => `This is a reminder: ${team} is still waiting for you to fill in “${t}”.`,
    },
  },
  messageFrom: (team) => `${team} writes:`,
  linkFallback: 'If the button does not work, open this link:',
  personalLink: 'This link is personal to you: please do not forward this e-mail.',
  completed: {
    subject: (t) => `“${t}” is complete`,
    body: (t, n) =>
      `Everyone has completed “${t}”.` + (n === 0 ? '' : n === 1 ? ' The signed document is attached.' : ' The signed documents are attached.'),
    again: 'You can download it again at any time from this link:',
    button: 'Open the document',
  },
  rejected: {
    subject: (name, t) => `${name} rejected “${t}”`,
    body: (name, t) => `${name} rejected “${t}”. The document can no longer be signed.`,
  },
  cancelled: {
    subject: (t) => `“${t}” was cancelled`,
    body: (team, t) => `${team} cancelled “${t}”. It can no longer be signed, and nothing more is needed from you.`,
  },
  teamCompleted: {
    subject: (t) => `“${t}” was completed by everyone`,
    body: (t, n) =>
      `Everyone has completed “${t}”.` + (n === 0 ? '' : n === 1 ? ' The signed document is attached.' : ' The signed documents are attached.'),
    who: 'Recipients:',
  },
  reason: 'Reason:',
  did: { SIGNER: 'signed', APPROVER: 'approved', VIEWER: 'viewed', ASSISTANT: 'filled in', CC: 'received a copy' },
  footer: (team) => `Sent on behalf of ${team}.`,
  colon: ':',
}

const de: MailStrings = {
  quote: (t) => `„${t}“`,
  greeting: (name) => (name ? `Hallo ${name},` : 'Guten Tag,'),
  request: {
    subject: {
      SIGNER: (t) => `Bitte unterschreiben Sie „${t}“`,
      APPROVER: (t) => `Bitte genehmigen Sie „${t}“`,
      VIEWER: (t) => `Bitte sehen Sie „${t}“ durch`,
      ASSISTANT: (t) => `Bitte füllen Sie „${t}“ aus`,
    },
    intro: {
      SIGNER: (team, t) => `${team} hat Ihnen „${t}“ zur Unterschrift gesendet.`,
      APPROVER: (team, t) => `${team} hat Ihnen „${t}“ zur Genehmigung gesendet.`,
      VIEWER: (team, t) => `${team} hat Ihnen „${t}“ zur Durchsicht gesendet.`,
      ASSISTANT: (team, t) => `${team} bittet Sie, „${t}“ auszufüllen.`,
    },
    button: { SIGNER: 'Dokument unterschreiben', APPROVER: 'Dokument genehmigen', VIEWER: 'Dokument ansehen', ASSISTANT: 'Dokument ausfüllen' },
  },
  reminder: {
    prefix: 'Erinnerung: ',
    intro: {
      SIGNER: (team, t) => `Zur Erinnerung: ${team} wartet noch auf Ihre Unterschrift unter „${t}“.`,
      APPROVER: (team, t) => `Zur Erinnerung: ${team} wartet noch auf Ihre Genehmigung von „${t}“.`,
      VIEWER: (team, t) => `Zur Erinnerung: ${team} wartet noch darauf, dass Sie „${t}“ durchsehen.`,
      ASSISTANT: (team, t) => `Zur Erinnerung: ${team} wartet noch darauf, dass Sie „${t}“ ausfüllen.`,
    },
  },
  messageFrom: (team) => `${team} schreibt:`,
  linkFallback: 'Falls die Schaltfläche nicht funktioniert, öffnen Sie diesen Link:',
  personalLink: 'Dieser Link gilt nur für Sie: Bitte leiten Sie diese E-Mail nicht weiter.',
  completed: {
    subject: (t) => `„${t}“ ist abgeschlossen`,
    body: (t, n) =>
      `Alle Beteiligten haben „${t}“ abgeschlossen.` +
      (n === 0 ? '' : n === 1 ? ' Das unterschriebene Dokument ist angehängt.' : ' Die unterschriebenen Dokumente sind angehängt.'),
    again: 'Über diesen Link können Sie es jederzeit erneut herunterladen:',
    button: 'Dokument öffnen',
  },
  rejected: {
    subject: (name, t) => `${name} hat „${t}“ abgelehnt`,
    body: (name, t) => `${name} hat „${t}“ abgelehnt. Das Dokument kann nicht mehr unterschrieben werden.`,
  },
  cancelled: {
    subject: (t) => `„${t}“ wurde zurückgezogen`,
    body: (team, t) => `${team} hat „${t}“ zurückgezogen. Es kann nicht mehr unterschrieben werden; Sie müssen nichts weiter tun.`,
  },
  teamCompleted: {
    subject: (t) => `„${t}“ wurde von allen abgeschlossen`,
    body: (t, n) =>
      `Alle Beteiligten haben „${t}“ abgeschlossen.` +
      (n === 0 ? '' : n === 1 ? ' Das unterschriebene Dokument ist angehängt.' : ' Die unterschriebenen Dokumente sind angehängt.'),
    who: 'Empfänger:',
  },
  reason: 'Begründung:',
  did: { SIGNER: 'hat unterschrieben', APPROVER: 'hat genehmigt', VIEWER: 'hat angesehen', ASSISTANT: 'hat ausgefüllt', CC: 'hat eine Kopie erhalten' },
  footer: (team) => `Gesendet im Auftrag von ${team}.`,
  colon: ':',
}

// French typography: a no-break space inside « » and before : ; ? !
const nb = '\u00a0'
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
}

export const MAIL_STRINGS: Record<Language, MailStrings> = { en, de, fr }

/** documentMeta.language as a mail language: a language spoken by its primary subtag ("de-AT" is German); anything else English. */
export const mailLanguage = (tag: unknown): MailLanguage => languageOf(tag)

export function actingRole(role: string): ActingRole {
  return role === 'SIGNER' || role === 'APPROVER' || role === 'ASSISTANT' ? role : 'VIEWER'
}
