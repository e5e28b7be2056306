import { TZDate } from '@date-fns/tz'
import { format } from 'date-fns'
import { de, enUS, fr } from 'date-fns/locale'

const LOCALES = { en: enUS, de, fr } as Record<string, typeof enUS>

/** `at` in the envelope's date format and time zone, month and day names in its language. */
export function formatSigningDate(at: Date, dateFormat: string, timezone: string, language: string): string {
  const locale = LOCALES[language.split(/[-_]/)[0]!.toLowerCase()] ?? enUS
  let zoned: Date
  try {
    zoned = new TZDate(at, timezone)
    if (Number.isNaN(zoned.getTime())) throw new RangeError(timezone)
  } catch {
    zoned = new TZDate(at, 'Etc/UTC')
  }
  try {
    return format(zoned, dateFormat, { locale })
  } catch {
    // A pattern date-fns refuses: fall back to the default rather than fail a signature.
    return format(zoned, 'yyyy-MM-dd hh:mm a', { locale })
  }
}
