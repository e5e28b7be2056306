import type { MailStrings } from './en.js'

/** The e-mails' words in Italian. */
const it: MailStrings = {
  quote: (t) => `«${t}»`,
  greeting: (name) => (name ? `Ciao ${name},` : 'Buongiorno,'),
  request: {
    subject: {
      SIGNER: (t) => `Firma «${t}»`,
      APPROVER: (t) => `Approva «${t}»`,
      VIEWER: (t) => `Visiona «${t}»`,
      ASSISTANT: (t) => `Compila «${t}»`,
    },
    intro: {
      SIGNER: (team, t) => `${team} ti ha inviato «${t}» da firmare.`,
      APPROVER: (team, t) => `${team} ti ha inviato «${t}» da approvare.`,
      VIEWER: (team, t) => `${team} ti ha inviato «${t}» da visionare.`,
      ASSISTANT: (team, t) => `${team} ti chiede di compilare «${t}».`,
    },
    button: { SIGNER: 'Firma il documento', APPROVER: 'Approva il documento', VIEWER: 'Visiona il documento', ASSISTANT: 'Compila il documento' },
  },
  reminder: {
    prefix: 'Promemoria: ',
    intro: {
      SIGNER: (team, t) => `Ti ricordiamo che ${team} sta ancora aspettando la tua firma su «${t}».`,
      APPROVER: (team, t) => `Ti ricordiamo che ${team} sta ancora aspettando la tua approvazione di «${t}».`,
      VIEWER: (team, t) => `Ti ricordiamo che ${team} sta ancora aspettando che tu visioni «${t}».`,
      ASSISTANT: (team, t) => `Ti ricordiamo che ${team} sta ancora aspettando che tu compili «${t}».`,
    },
  },
  messageFrom: (team) => `${team} scrive:`,
  linkFallback: 'Se il pulsante non funziona, apri questo link:',
  personalLink: 'Questo link è personale: non inoltrare questa e-mail.',
  completed: {
    subject: (t) => `«${t}» è completo`,
    body: (t, n) =>
      `Tutti hanno completato «${t}».` + (n === 0 ? '' : n === 1 ? ' Il documento firmato è allegato.' : ' I documenti firmati sono allegati.'),
    again: 'Puoi scaricarlo di nuovo in qualsiasi momento da questo link:',
    button: 'Apri il documento',
  },
  rejected: {
    subject: (name, t) => `${name} ha rifiutato «${t}»`,
    body: (name, t) => `${name} ha rifiutato «${t}». Il documento non può più essere firmato.`,
  },
  cancelled: {
    subject: (t) => `«${t}» è stato annullato`,
    body: (team, t) => `${team} ha annullato «${t}». Non può più essere firmato e non devi fare nient’altro.`,
  },
  teamCompleted: {
    subject: (t) => `«${t}» è stato completato da tutti`,
    body: (t, n) =>
      `Tutti hanno completato «${t}».` + (n === 0 ? '' : n === 1 ? ' Il documento firmato è allegato.' : ' I documenti firmati sono allegati.'),
    who: 'Destinatari:',
  },
  reason: 'Motivo:',
  did: { SIGNER: 'ha firmato', APPROVER: 'ha approvato', VIEWER: 'ha visionato', ASSISTANT: 'ha compilato', CC: 'ha ricevuto una copia' },
  footer: (team) => `Inviato per conto di ${team}.`,
  colon: ':',
  code: {
    subject: 'Il tuo codice di firma',
    body: (t) => `Inserisci questo codice nella pagina di firma di «${t}»:`,
    note: 'Il codice funziona una volta, per 10 minuti. Se non l’hai richiesto, ignora questo messaggio.',
  },
  account: (p) => ({
    verify: { subject: 'Conferma il tuo indirizzo e-mail', heading: 'Conferma il tuo indirizzo e-mail', body: 'Conferma che questo indirizzo è tuo per completare la configurazione del tuo account.', button: 'Conferma l’indirizzo', note: 'Il link funziona una volta, per 24 ore. Se non hai creato un account, ignora questo messaggio.' },
    reset: { subject: 'Reimposta la password', heading: 'Reimposta la password', body: 'Qualcuno ha chiesto di reimpostare la password dell’account con questo indirizzo. Scegli una nuova password con il link qui sotto.', button: 'Scegli una nuova password', note: 'Il link funziona una volta, per un’ora. Se non l’hai richiesto, ignora questo messaggio: la tua password resta invariata.' },
    signin: { subject: 'Il tuo link di accesso', heading: 'Accedi', body: 'Usa il link qui sotto per accedere al tuo account.', button: 'Accedi', note: 'Il link funziona una volta, per 15 minuti. Se non l’hai richiesto, ignora questo messaggio.' },
    invite: { subject: `Entra in ${p.teamName ?? 'un team'}`, heading: `Entra in ${p.teamName ?? 'un team'}`, body: `${p.inviter ?? 'Un membro del team'} ti ha invitato a entrare in ${p.teamName ?? 'il suo team'}.`, button: 'Accetta l’invito', note: 'L’invito è valido per 7 giorni.' },
  }),
}
export default it
