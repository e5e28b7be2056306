/**
 * The verification page's words in en, de and fr, chosen from the browser's language (`?lang=`
 * overrides it). The page is its own small chunk: its words live with it.
 */
const en = {
  title: 'Verify a signed document',
  lead: 'Choose a PDF you received. It is checked on this server and not kept.',
  drop: 'Drop a PDF here or choose a file',
  checking: 'Checking {name}…',
  failed: 'The check failed ({status}).',
  offline: 'The file could not be sent. Check the connection and try again.',
  noSignature: 'This file carries no signature.',
  intact: 'The seal is intact: the file has not been changed since it was signed.',
  broken: 'This file was changed after it was signed, or a signature does not check out.',
  file: 'File',
  pages: 'Pages',
  completedHere: 'Completed on this service',
  docTitle: 'Title',
  completed: 'Completed',
  recipients: 'Recipients',
  signature: 'Signature {n}',
  intactWhole: 'Intact, whole file',
  intactAdded: 'Intact, but content was added after it',
  brokenBadge: 'Broken',
  problem: 'Problem',
  form: 'Form',
  signed: 'Signed',
  timestamp: 'Timestamp',
  timestampBy: '{when} by {authority}',
  unnamedAuthority: 'an unnamed authority',
  timestampBad: ' (does not check out)',
  none: 'none',
  certificate: 'Certificate',
  issuedBy: 'Issued by',
  selfSigned: '{issuer} (self-signed: a demonstration seal)',
  valid: 'Valid',
  role_SIGNER: 'signer',
  role_APPROVER: 'approver',
  role_VIEWER: 'viewer',
  role_CC: 'copy',
  role_ASSISTANT: 'assistant',
}
export type VerifyWord = keyof typeof en

const de: Record<VerifyWord, string> = {
  title: 'Ein unterschriebenes Dokument prüfen',
  lead: 'Wählen Sie ein PDF, das Sie erhalten haben. Es wird auf diesem Server geprüft und nicht gespeichert.',
  drop: 'PDF hier ablegen oder eine Datei wählen',
  checking: '{name} wird geprüft…',
  failed: 'Die Prüfung ist fehlgeschlagen ({status}).',
  offline: 'Die Datei konnte nicht gesendet werden. Prüfen Sie die Verbindung und versuchen Sie es erneut.',
  noSignature: 'Diese Datei trägt keine Signatur.',
  intact: 'Das Siegel ist intakt: Die Datei wurde seit der Unterschrift nicht verändert.',
  broken: 'Diese Datei wurde nach der Unterschrift verändert, oder eine Signatur ist nicht gültig.',
  file: 'Datei',
  pages: 'Seiten',
  completedHere: 'Auf diesem Dienst abgeschlossen',
  docTitle: 'Titel',
  completed: 'Abgeschlossen',
  recipients: 'Empfänger',
  signature: 'Signatur {n}',
  intactWhole: 'Intakt, ganze Datei',
  intactAdded: 'Intakt, aber danach wurde Inhalt angefügt',
  brokenBadge: 'Gebrochen',
  problem: 'Problem',
  form: 'Form',
  signed: 'Signiert',
  timestamp: 'Zeitstempel',
  timestampBy: '{when} von {authority}',
  unnamedAuthority: 'einer unbenannten Stelle',
  timestampBad: ' (nicht gültig)',
  none: 'keiner',
  certificate: 'Zertifikat',
  issuedBy: 'Ausgestellt von',
  selfSigned: '{issuer} (selbst signiert: ein Demonstrationssiegel)',
  valid: 'Gültig',
  role_SIGNER: 'unterschreibt',
  role_APPROVER: 'genehmigt',
  role_VIEWER: 'sieht ein',
  role_CC: 'Kopie',
  role_ASSISTANT: 'assistiert',
}

const fr: Record<VerifyWord, string> = {
  title: 'Vérifier un document signé',
  lead: 'Choisissez un PDF que vous avez reçu. Il est vérifié sur ce serveur et n’est pas conservé.',
  drop: 'Déposez un PDF ici ou choisissez un fichier',
  checking: 'Vérification de {name}…',
  failed: 'La vérification a échoué ({status}).',
  offline: 'Le fichier n’a pas pu être envoyé. Vérifiez la connexion et réessayez.',
  noSignature: 'Ce fichier ne porte aucune signature.',
  intact: 'Le sceau est intact : le fichier n’a pas été modifié depuis sa signature.',
  broken: 'Ce fichier a été modifié après sa signature, ou une signature n’est pas valable.',
  file: 'Fichier',
  pages: 'Pages',
  completedHere: 'Terminé sur ce service',
  docTitle: 'Titre',
  completed: 'Terminé',
  recipients: 'Destinataires',
  signature: 'Signature {n}',
  intactWhole: 'Intacte, fichier entier',
  intactAdded: 'Intacte, mais du contenu a été ajouté après',
  brokenBadge: 'Rompue',
  problem: 'Problème',
  form: 'Forme',
  signed: 'Signé',
  timestamp: 'Horodatage',
  timestampBy: '{when} par {authority}',
  unnamedAuthority: 'une autorité sans nom',
  timestampBad: ' (non valable)',
  none: 'aucun',
  certificate: 'Certificat',
  issuedBy: 'Émis par',
  selfSigned: '{issuer} (auto-signé : un sceau de démonstration)',
  valid: 'Valable',
  role_SIGNER: 'signataire',
  role_APPROVER: 'approbateur',
  role_VIEWER: 'lecteur',
  role_CC: 'copie',
  role_ASSISTANT: 'assistant',
}

const DICTIONARIES: Record<string, Record<VerifyWord, string>> = { en, de, fr }

function pick(): string {
  const asked = new URLSearchParams(location.search).get('lang') ?? navigator.language ?? 'en'
  const base = asked.toLowerCase().split(/[-_]/)[0]!
  return base in DICTIONARIES ? base : 'en'
}

export const verifyLanguage = pick()

/** The text of `key`, `{name}` placeholders filled from `vars`. */
export function vt(key: VerifyWord, vars: Record<string, string | number> = {}): string {
  return DICTIONARIES[verifyLanguage]![key].replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m))
}
