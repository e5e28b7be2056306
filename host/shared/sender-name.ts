/**
 * Whether a team's sender name (docs/branding.md) could pass for an address where a mail client
 * shows it as the sender: an `@` in any script (the fullwidth and small forms fold to one under
 * NFKC; the invisible tag form is refused as a format character), a domain such as `paypal.com`
 * (any dot look-alike between a word and a two-letter or longer ending), angle brackets and their
 * look-alikes, or invisible format characters (a right-to-left override can turn `moc.lapyap`
 * into what reads as `paypal.com`). Read by the branding's validation and, for names stored
 * before it, by the mail transport, which then does not show the name.
 */

/** Dots as scripts and fonts draw them (after NFKC: the fullwidth and one-dot-leader forms are `.` already). */
const DOTS = /[\u3002\uFF61\uFE52\u00B7\u2027\u0701\u0702\u30FB\uFF65]/gu
const AT = /[@\uFF20\uFE6B\u{E0040}]/u
/** A word, a dot and an ending of letters, as `paypal.com`, `mail.example.co.uk` or `пример.рф`. */
const DOMAIN = /[\p{L}\p{N}](?:[\p{L}\p{N}-]*)\.\p{L}[\p{L}\p{M}]+(?![\p{L}\p{N}])/u
const BRACKETS = /[<>\u2039\u203A\u3008\u3009\u27E8\u27E9\uFE64\uFE65\u276C\u276D]/u
/** Format characters: zero-width joiners and spaces, bidirectional overrides, tag characters. */
const FORMAT = /\p{Cf}/u

export type AddressShape = 'at' | 'domain' | 'brackets' | 'invisible'

/** Why `name` could pass for an address, or null when it cannot. */
export function addressShape(name: string): AddressShape | null {
  if (FORMAT.test(name)) return 'invisible'
  const folded = name.normalize('NFKC').replace(DOTS, '.')
  if (AT.test(folded)) return 'at'
  if (BRACKETS.test(folded)) return 'brackets'
  if (DOMAIN.test(folded)) return 'domain'
  return null
}

export const SENDER_NAME_RULE = 'The sender name is shown as who the e-mail is from: it may not look like an address (no @ in any script, no domain such as example.com, no angle brackets or invisible characters)'
