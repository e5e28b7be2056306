import type { MailStrings } from './en.js'

/** The e-mails' words in Polish. */
const pl: MailStrings = {
  quote: (t) => `„${t}”`,
  greeting: (name) => (name ? `Dzień dobry, ${name},` : 'Dzień dobry,'),
  request: {
    subject: {
      SIGNER: (t) => `Prośba o podpisanie „${t}”`,
      APPROVER: (t) => `Prośba o zatwierdzenie „${t}”`,
      VIEWER: (t) => `Prośba o przejrzenie „${t}”`,
      ASSISTANT: (t) => `Prośba o wypełnienie „${t}”`,
    },
    intro: {
      SIGNER: (team, t) => `${team} przesyła Ci „${t}” do podpisu.`,
      APPROVER: (team, t) => `${team} przesyła Ci „${t}” do zatwierdzenia.`,
      VIEWER: (team, t) => `${team} przesyła Ci „${t}” do przejrzenia.`,
      ASSISTANT: (team, t) => `${team} prosi o wypełnienie „${t}”.`,
    },
    button: { SIGNER: 'Podpisz dokument', APPROVER: 'Zatwierdź dokument', VIEWER: 'Przejrzyj dokument', ASSISTANT: 'Wypełnij dokument' },
  },
  reminder: {
    prefix: 'Przypomnienie: ',
    intro: {
      SIGNER: (team, t) => `Przypominamy: ${team} nadal czeka na Twój podpis pod „${t}”.`,
      APPROVER: (team, t) => `Przypominamy: ${team} nadal czeka na Twoje zatwierdzenie „${t}”.`,
      VIEWER: (team, t) => `Przypominamy: ${team} nadal czeka na przejrzenie „${t}”.`,
      ASSISTANT: (team, t) => `Przypominamy: ${team} nadal czeka na wypełnienie „${t}”.`,
    },
  },
  messageFrom: (team) => `Wiadomość od ${team}:`,
  linkFallback: 'Jeśli przycisk nie działa, otwórz ten link:',
  personalLink: 'Ten link jest osobisty: nie przekazuj dalej tego e-maila.',
  completed: {
    subject: (t) => `„${t}” jest zakończony`,
    body: (t, n) =>
      `Wszyscy zakończyli „${t}”.` + (n === 0 ? '' : n === 1 ? ' Podpisany dokument jest w załączniku.' : ' Podpisane dokumenty są w załącznikach.'),
    again: 'W każdej chwili możesz pobrać go ponownie z tego linku:',
    button: 'Otwórz dokument',
  },
  rejected: {
    subject: (name, t) => `${name} odrzuca „${t}”`,
    body: (name, t) => `${name} odrzuca „${t}”. Dokumentu nie można już podpisać.`,
  },
  cancelled: {
    subject: (t) => `„${t}” został anulowany`,
    body: (team, t) => `${team} anuluje „${t}”. Nie można go już podpisać i nie musisz nic więcej robić.`,
  },
  teamCompleted: {
    subject: (t) => `„${t}” został zakończony przez wszystkich`,
    body: (t, n) =>
      `Wszyscy zakończyli „${t}”.` + (n === 0 ? '' : n === 1 ? ' Podpisany dokument jest w załączniku.' : ' Podpisane dokumenty są w załącznikach.'),
    who: 'Odbiorcy:',
  },
  reason: 'Powód:',
  did: { SIGNER: 'podpisano', APPROVER: 'zatwierdzono', VIEWER: 'przejrzano', ASSISTANT: 'wypełniono', CC: 'otrzymano kopię' },
  footer: (team) => `Wysłano w imieniu: ${team}.`,
  colon: ':',
  code: {
    subject: 'Twój kod do podpisu',
    body: (t) => `Wpisz ten kod na stronie podpisywania „${t}”:`,
    note: 'Kod działa jeden raz, przez 10 minut. Jeśli o niego nie prosisz, zignoruj tę wiadomość.',
  },
}
export default pl
