/**
 * E-mail addresses as accounts and invitations compare them: trimmed, Unicode NFC, lower-case.
 * (The local part is case-sensitive by the letter of RFC 5321; no mail service treats it so, and
 * two accounts differing only in case would be a trap.)
 */
export function normaliseEmail(email: string): string {
  return email.normalize('NFC').trim().toLowerCase()
}

/** A plausible address: one @, something on each side, no spaces, at most 254 characters (RFC 5321). */
export function isEmail(email: string): boolean {
  return email.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)
}
