import type { MailStrings } from './en.js'

/** The e-mails' words in Dutch. */
const nl: MailStrings = {
  quote: (t) => `‘${t}’`,
  greeting: (name) => (name ? `Beste ${name},` : 'Goedendag,'),
  request: {
    subject: {
      SIGNER: (t) => `Wilt u ‘${t}’ ondertekenen?`,
      APPROVER: (t) => `Wilt u ‘${t}’ goedkeuren?`,
      VIEWER: (t) => `Wilt u ‘${t}’ bekijken?`,
      ASSISTANT: (t) => `Wilt u ‘${t}’ invullen?`,
    },
    intro: {
      SIGNER: (team, t) => `${team} heeft u ‘${t}’ gestuurd om te ondertekenen.`,
      APPROVER: (team, t) => `${team} heeft u ‘${t}’ gestuurd om goed te keuren.`,
      VIEWER: (team, t) => `${team} heeft u ‘${t}’ gestuurd om te bekijken.`,
      ASSISTANT: (team, t) => `${team} vraagt u ‘${t}’ in te vullen.`,
    },
    button: { SIGNER: 'Document ondertekenen', APPROVER: 'Document goedkeuren', VIEWER: 'Document bekijken', ASSISTANT: 'Document invullen' },
  },
  reminder: {
    prefix: 'Herinnering: ',
    intro: {
      SIGNER: (team, t) => `Ter herinnering: ${team} wacht nog op uw handtekening onder ‘${t}’.`,
      APPROVER: (team, t) => `Ter herinnering: ${team} wacht nog op uw goedkeuring van ‘${t}’.`,
      VIEWER: (team, t) => `Ter herinnering: ${team} wacht er nog op dat u ‘${t}’ bekijkt.`,
      ASSISTANT: (team, t) => `Ter herinnering: ${team} wacht er nog op dat u ‘${t}’ invult.`,
    },
  },
  messageFrom: (team) => `${team} schrijft:`,
  linkFallback: 'Werkt de knop niet? Open dan deze link:',
  personalLink: 'Deze link is persoonlijk: stuur deze e-mail niet door.',
  completed: {
    subject: (t) => `‘${t}’ is voltooid`,
    body: (t, n) =>
      `Iedereen heeft ‘${t}’ afgerond.` + (n === 0 ? '' : n === 1 ? ' Het ondertekende document is bijgevoegd.' : ' De ondertekende documenten zijn bijgevoegd.'),
    again: 'U kunt het altijd opnieuw downloaden via deze link:',
    button: 'Document openen',
  },
  rejected: {
    subject: (name, t) => `${name} heeft ‘${t}’ geweigerd`,
    body: (name, t) => `${name} heeft ‘${t}’ geweigerd. Het document kan niet meer worden ondertekend.`,
  },
  cancelled: {
    subject: (t) => `‘${t}’ is ingetrokken`,
    body: (team, t) => `${team} heeft ‘${t}’ ingetrokken. Het kan niet meer worden ondertekend en u hoeft niets meer te doen.`,
  },
  teamCompleted: {
    subject: (t) => `‘${t}’ is door iedereen voltooid`,
    body: (t, n) =>
      `Iedereen heeft ‘${t}’ afgerond.` + (n === 0 ? '' : n === 1 ? ' Het ondertekende document is bijgevoegd.' : ' De ondertekende documenten zijn bijgevoegd.'),
    who: 'Ontvangers:',
  },
  reason: 'Reden:',
  did: { SIGNER: 'heeft ondertekend', APPROVER: 'heeft goedgekeurd', VIEWER: 'heeft bekeken', ASSISTANT: 'heeft ingevuld', CC: 'heeft een kopie ontvangen' },
  footer: (team) => `Verstuurd namens ${team}.`,
  colon: ':',
  code: {
    subject: 'Uw code om te ondertekenen',
    body: (t) => `Voer deze code in op de ondertekenpagina van ‘${t}’:`,
    note: 'De code werkt één keer, 10 minuten lang. Hebt u hem niet aangevraagd? Negeer dan dit bericht.',
  },
  account: (p) => ({
    verify: { subject: 'Bevestig uw e-mailadres', heading: 'Bevestig uw e-mailadres', body: 'Bevestig dat dit adres van u is om uw account af te maken.', button: 'Adres bevestigen', note: 'De link werkt één keer, 24 uur lang. Hebt u geen account gemaakt? Negeer dan dit bericht.' },
    reset: { subject: 'Wachtwoord opnieuw instellen', heading: 'Wachtwoord opnieuw instellen', body: 'Iemand heeft gevraagd het wachtwoord van het account met dit adres opnieuw in te stellen. Kies met de link hieronder een nieuw wachtwoord.', button: 'Nieuw wachtwoord kiezen', note: 'De link werkt één keer, een uur lang. Hebt u dit niet aangevraagd? Negeer dan dit bericht: uw wachtwoord blijft ongewijzigd.' },
    signin: { subject: 'Uw inloglink', heading: 'Inloggen', body: 'Gebruik de link hieronder om in te loggen op uw account.', button: 'Inloggen', note: 'De link werkt één keer, 15 minuten lang. Hebt u hem niet aangevraagd? Negeer dan dit bericht.' },
    invite: { subject: `Word lid van ${p.teamName ?? 'een team'}`, heading: `Word lid van ${p.teamName ?? 'een team'}`, body: `${p.inviter ?? 'Een teamlid'} heeft u uitgenodigd lid te worden van ${p.teamName ?? 'zijn team'}.`, button: 'Uitnodiging aannemen', note: 'De uitnodiging is 7 dagen geldig.' },
  }),
}
export default nl
