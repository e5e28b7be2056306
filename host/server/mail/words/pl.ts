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
  account: (p) => ({
    verify: { subject: 'Potwierdź adres e-mail', heading: 'Potwierdź adres e-mail', body: 'Potwierdź, że ten adres należy do Ciebie, aby dokończyć zakładanie konta.', button: 'Potwierdź adres', note: 'Link działa jeden raz, przez 24 godziny. Jeśli nie zakładasz konta, zignoruj tę wiadomość.' },
    reset: { subject: 'Zresetuj hasło', heading: 'Zresetuj hasło', body: 'Ktoś poprosił o zresetowanie hasła do konta z tym adresem. Wybierz nowe hasło za pomocą linku poniżej.', button: 'Wybierz nowe hasło', note: 'Link działa jeden raz, przez godzinę. Jeśli o to nie prosisz, zignoruj tę wiadomość: hasło pozostanie bez zmian.' },
    signin: { subject: 'Twój link do logowania', heading: 'Zaloguj się', body: 'Użyj linku poniżej, aby zalogować się na swoje konto.', button: 'Zaloguj się', note: 'Link działa jeden raz, przez 15 minut. Jeśli o niego nie prosisz, zignoruj tę wiadomość.' },
    invite: { subject: `Dołącz do zespołu ${p.teamName ?? ''}`.trim(), heading: `Dołącz do zespołu ${p.teamName ?? ''}`.trim(), body: `${p.inviter ?? 'Członek zespołu'} zaprasza Cię do zespołu ${p.teamName ?? ''}`.trim() + '.', button: 'Przyjmij zaproszenie', note: 'Zaproszenie jest ważne przez 7 dni.' },
  }),
}
export default pl
