/**
 * The words of the evidence documents (certificate and audit log) in the languages a document can
 * have; anything else reads in English. Dates are formatted with the document's own settings.
 */
import { formatSigningDate } from '../domain/signing-date.js'

const EN = {
  certificate: 'Signing certificate',
  auditLog: 'Audit log',
  envelopeId: 'Envelope ID',
  title: 'Title',
  status: 'Status',
  completed: 'Completed',
  timezone: 'Time zone',
  documents: 'Documents',
  sentHash: 'SHA-256 as sent',
  sealedHash: 'SHA-256 as sealed',
  recipients: 'Recipients',
  email: 'E-mail',
  role: 'Role',
  verified: 'Verified by',
  ipAddress: 'IP address',
  client: 'Client',
  signature: 'Signature',
  history: 'History',
  page: (n: number, of: number) => `Page ${n} of ${of}`,
  sealNote: 'This document is sealed with a digital signature of the service. Any change made to it after sealing invalidates the signature.',
  demoNote:
    'Demonstration seal: signed with a self-signed certificate the service made for itself, which no one else vouches for. Configure a certificate from a trusted authority for documents of record.',
  generated: 'Generated',
  entries: 'Entries',
  time: 'Time',
  event: 'Event',
  by: 'By',
  details: 'Details',
  none: '—',
  emailLink: 'Link sent by e-mail to this address',
  clientOn: 'on',
  unknownBrowser: 'Unknown browser',
  openedAfter: 'opened after',
  confirmedWith: 'confirmed with',
  methods: { ACCOUNT: 'account sign-in', TWO_FACTOR_AUTH: 'one-time code', PASSWORD: 'account password', PASSKEY: 'passkey' } as Record<string, string>,
  directLink: 'Direct link (the signer gave this name and address)',
  noAction: 'No action required',
  linkCreated: 'Signing link created (not sent by e-mail)',
  linkFromSender: 'Signing link handed out by the sender (not sent by e-mail)',
  verifiedToOpen: 'Verified to open with',
  verifiedToAct: 'Verified to act with',
  reason: 'Reason',
  roles: { SIGNER: 'Signer', APPROVER: 'Approver', VIEWER: 'Viewer', ASSISTANT: 'Assistant', CC: 'Receives a copy' } as Record<string, string>,
  events: {
    DOCUMENT_CREATED: 'Document created',
    DOCUMENT_SENT: 'Document sent',
    EMAIL_SENT: 'E-mail sent',
    REMINDER: 'Reminder sent',
    DOCUMENT_COMPLETED_EMAIL: 'Completed document sent by e-mail',
    DOCUMENT_OPENED: 'Opened',
    DOCUMENT_RECIPIENT_COMPLETED: 'Completed their part',
    SIGNED: 'Signed',
    APPROVED: 'Approved',
    VIEWED: 'Viewed',
    ASSISTED: 'Assisted',
    DOCUMENT_RECIPIENT_REJECTED: 'Rejected',
    DOCUMENT_RECIPIENT_EXPIRED: 'Link expired',
    RECIPIENT_UPDATED: 'Recipient changed',
    DOCUMENT_COMPLETED: 'Document completed',
    DOCUMENT_CANCELLED: 'Document cancelled',
    DOCUMENT_DELETED: 'Document deleted',
    DOCUMENT_META_UPDATED: 'Settings changed',
    DOCUMENT_TITLE_UPDATED: 'Title changed',
    DOCUMENT_SEALING_FAILED: 'Sealing attempt failed',
    CC: 'Received a copy',
  } as Record<string, string>,
}
export type EvidenceText = typeof EN

const DE: EvidenceText = {
  ...EN,
  certificate: 'Signaturzertifikat',
  auditLog: 'Prüfprotokoll',
  envelopeId: 'Umschlag-ID',
  title: 'Titel',
  status: 'Status',
  completed: 'Abgeschlossen',
  timezone: 'Zeitzone',
  documents: 'Dokumente',
  sentHash: 'SHA-256 wie versandt',
  sealedHash: 'SHA-256 wie versiegelt',
  recipients: 'Empfänger',
  email: 'E-Mail',
  role: 'Rolle',
  verified: 'Verifiziert durch',
  ipAddress: 'IP-Adresse',
  client: 'Client',
  signature: 'Unterschrift',
  history: 'Verlauf',
  page: (n, of) => `Seite ${n} von ${of}`,
  sealNote: 'Dieses Dokument ist mit einer digitalen Signatur des Dienstes versiegelt. Jede Änderung nach der Versiegelung macht die Signatur ungültig.',
  demoNote:
    'Demonstrationssiegel: signiert mit einem selbst ausgestellten Zertifikat des Dienstes, für das niemand sonst bürgt. Für verbindliche Dokumente ein Zertifikat einer vertrauenswürdigen Stelle einrichten.',
  generated: 'Erstellt',
  entries: 'Einträge',
  time: 'Zeit',
  event: 'Ereignis',
  by: 'Von',
  details: 'Details',
  emailLink: 'Link per E-Mail an diese Adresse',
  clientOn: 'unter',
  unknownBrowser: 'Unbekannter Browser',
  openedAfter: 'geöffnet nach',
  confirmedWith: 'bestätigt mit',
  methods: { ACCOUNT: 'Kontoanmeldung', TWO_FACTOR_AUTH: 'Einmalcode', PASSWORD: 'Kontopasswort', PASSKEY: 'Passkey' },
  directLink: 'Direktlink (Name und Adresse vom Unterzeichner angegeben)',
  noAction: 'Keine Aktion erforderlich',
  linkCreated: 'Signierlink erstellt (nicht per E-Mail versandt)',
  linkFromSender: 'Signierlink vom Absender weitergegeben (nicht per E-Mail versandt)',
  verifiedToOpen: 'Zum Öffnen verifiziert mit',
  verifiedToAct: 'Zum Handeln verifiziert mit',
  reason: 'Grund',
  roles: { SIGNER: 'Unterzeichner', APPROVER: 'Genehmiger', VIEWER: 'Betrachter', ASSISTANT: 'Assistent', CC: 'Erhält eine Kopie' },
  events: {
    ...EN.events,
    DOCUMENT_CREATED: 'Dokument erstellt',
    DOCUMENT_SENT: 'Dokument versandt',
    EMAIL_SENT: 'E-Mail versandt',
    REMINDER: 'Erinnerung versandt',
    DOCUMENT_COMPLETED_EMAIL: 'Abgeschlossenes Dokument per E-Mail versandt',
    DOCUMENT_OPENED: 'Geöffnet',
    DOCUMENT_RECIPIENT_COMPLETED: 'Teil abgeschlossen',
    SIGNED: 'Unterschrieben',
    APPROVED: 'Genehmigt',
    VIEWED: 'Angesehen',
    ASSISTED: 'Assistiert',
    DOCUMENT_RECIPIENT_REJECTED: 'Abgelehnt',
    DOCUMENT_RECIPIENT_EXPIRED: 'Link abgelaufen',
    RECIPIENT_UPDATED: 'Empfänger geändert',
    DOCUMENT_COMPLETED: 'Dokument abgeschlossen',
    DOCUMENT_CANCELLED: 'Dokument storniert',
    DOCUMENT_DELETED: 'Dokument gelöscht',
    DOCUMENT_META_UPDATED: 'Einstellungen geändert',
    DOCUMENT_TITLE_UPDATED: 'Titel geändert',
    DOCUMENT_SEALING_FAILED: 'Versiegelung fehlgeschlagen',
    CC: 'Kopie erhalten',
  },
}

const FR: EvidenceText = {
  ...EN,
  certificate: 'Certificat de signature',
  auditLog: "Journal d'audit",
  envelopeId: "ID de l'enveloppe",
  title: 'Titre',
  status: 'Statut',
  completed: 'Terminé',
  timezone: 'Fuseau horaire',
  documents: 'Documents',
  sentHash: 'SHA-256 tel qu’envoyé',
  sealedHash: 'SHA-256 tel que scellé',
  recipients: 'Destinataires',
  email: 'E-mail',
  role: 'Rôle',
  verified: 'Vérifié par',
  ipAddress: 'Adresse IP',
  client: 'Client',
  signature: 'Signature',
  history: 'Historique',
  page: (n, of) => `Page ${n} sur ${of}`,
  sealNote: 'Ce document est scellé par une signature numérique du service. Toute modification après le scellement invalide la signature.',
  demoNote:
    'Sceau de démonstration : signé avec un certificat auto-signé du service, que personne d’autre ne garantit. Configurez un certificat d’une autorité de confiance pour les documents officiels.',
  generated: 'Généré',
  entries: 'Entrées',
  time: 'Heure',
  event: 'Événement',
  by: 'Par',
  details: 'Détails',
  emailLink: 'Lien envoyé par e-mail à cette adresse',
  clientOn: 'sur',
  unknownBrowser: 'Navigateur inconnu',
  openedAfter: 'ouvert après',
  confirmedWith: 'confirmé par',
  methods: { ACCOUNT: 'connexion au compte', TWO_FACTOR_AUTH: 'code à usage unique', PASSWORD: 'mot de passe du compte', PASSKEY: 'clé d’accès' },
  directLink: 'Lien direct (nom et adresse indiqués par le signataire)',
  noAction: 'Aucune action requise',
  linkCreated: 'Lien de signature créé (non envoyé par e-mail)',
  linkFromSender: 'Lien de signature remis par l’expéditeur (non envoyé par e-mail)',
  verifiedToOpen: 'Vérifié pour ouvrir avec',
  verifiedToAct: 'Vérifié pour agir avec',
  reason: 'Motif',
  roles: { SIGNER: 'Signataire', APPROVER: 'Approbateur', VIEWER: 'Lecteur', ASSISTANT: 'Assistant', CC: 'Reçoit une copie' },
  events: {
    ...EN.events,
    DOCUMENT_CREATED: 'Document créé',
    DOCUMENT_SENT: 'Document envoyé',
    EMAIL_SENT: 'E-mail envoyé',
    REMINDER: 'Rappel envoyé',
    DOCUMENT_COMPLETED_EMAIL: 'Document terminé envoyé par e-mail',
    DOCUMENT_OPENED: 'Ouvert',
    DOCUMENT_RECIPIENT_COMPLETED: 'A terminé sa part',
    SIGNED: 'Signé',
    APPROVED: 'Approuvé',
    VIEWED: 'Consulté',
    ASSISTED: 'Assisté',
    DOCUMENT_RECIPIENT_REJECTED: 'Refusé',
    DOCUMENT_RECIPIENT_EXPIRED: 'Lien expiré',
    RECIPIENT_UPDATED: 'Destinataire modifié',
    DOCUMENT_COMPLETED: 'Document terminé',
    DOCUMENT_CANCELLED: 'Document annulé',
    DOCUMENT_DELETED: 'Document supprimé',
    DOCUMENT_META_UPDATED: 'Paramètres modifiés',
    DOCUMENT_TITLE_UPDATED: 'Titre modifié',
    DOCUMENT_SEALING_FAILED: 'Échec du scellement',
    CC: 'Copie reçue',
  },
}

const TEXTS: Record<string, EvidenceText> = { en: EN, de: DE, fr: FR }

/** How the evidence documents speak and tell time: the document's settings. */
export interface EvidenceLocale {
  dateFormat: string
  timezone: string
  language: string
}

export const DEFAULT_LOCALE: EvidenceLocale = { dateFormat: 'yyyy-MM-dd hh:mm a', timezone: 'Etc/UTC', language: 'en' }

export function evidenceText(language: string): EvidenceText {
  return TEXTS[language.split(/[-_]/)[0]!.toLowerCase()] ?? EN
}

/** A time as the document shows times, with its zone named (seconds kept: evidence needs them). */
export function evidenceTime(iso: string | null | undefined, locale: EvidenceLocale): string {
  if (!iso) return '—'
  const at = new Date(iso)
  if (Number.isNaN(at.getTime())) return iso
  const pattern = /s/.test(locale.dateFormat) ? locale.dateFormat : withSeconds(locale.dateFormat)
  return `${formatSigningDate(at, pattern, locale.timezone, locale.language)} (${locale.timezone})`
}

/** The pattern with seconds after its minutes ("HH:mm" -> "HH:mm:ss"); unchanged when it shows no minutes. */
function withSeconds(pattern: string): string {
  return pattern.replace(/mm(?!m)/, 'mm:ss')
}
