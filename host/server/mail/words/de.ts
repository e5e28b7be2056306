import type { MailStrings } from './en.js'

/** The e-mails' words in German. */
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
  code: {
    subject: 'Ihr Code zum Unterschreiben',
    body: (t) => `Geben Sie diesen Code auf der Seite von „${t}“ ein:`,
    note: 'Der Code gilt einmal, 10 Minuten lang. Wenn Sie ihn nicht angefordert haben, ignorieren Sie diese Nachricht.',
  },
  account: (p) => ({
    verify: { subject: 'Bestätigen Sie Ihre E-Mail-Adresse', heading: 'Bestätigen Sie Ihre E-Mail-Adresse', body: 'Bestätigen Sie, dass diese Adresse Ihnen gehört, um Ihr Konto fertig einzurichten.', button: 'Adresse bestätigen', note: 'Der Link gilt einmal, 24 Stunden lang. Wenn Sie kein Konto angelegt haben, ignorieren Sie diese Nachricht.' },
    reset: { subject: 'Passwort zurücksetzen', heading: 'Passwort zurücksetzen', body: 'Jemand möchte das Passwort des Kontos mit dieser Adresse zurücksetzen. Wählen Sie über den Link ein neues Passwort.', button: 'Neues Passwort wählen', note: 'Der Link gilt einmal, eine Stunde lang. Wenn Sie das nicht angefordert haben, ignorieren Sie diese Nachricht.' },
    signin: { subject: 'Ihr Anmeldelink', heading: 'Anmelden', body: 'Melden Sie sich mit dem folgenden Link bei Ihrem Konto an.', button: 'Anmelden', note: 'Der Link gilt einmal, 15 Minuten lang. Wenn Sie ihn nicht angefordert haben, ignorieren Sie diese Nachricht.' },
    invite: { subject: `Einladung in ${p.teamName ?? 'ein Team'}`, heading: `Einladung in ${p.teamName ?? 'ein Team'}`, body: `${p.inviter ?? 'Ein Teammitglied'} hat Sie in ${p.teamName ?? 'sein Team'} eingeladen.`, button: 'Einladung annehmen', note: 'Die Einladung gilt 7 Tage.' },
  }),
}
export default de
