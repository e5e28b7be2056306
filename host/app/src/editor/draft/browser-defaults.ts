/**
 * What a new envelope's Settings start with, from the author's browser: its time zone, and the
 * date format of its locale among those the Settings step offers. They are saved like any other
 * choice, so the document says explicitly which zone and format its signing dates are written in.
 */
import { DATE_FORMATS as SHARED_DATE_FORMATS } from '../../../../shared/date-formats.js'

/** The date formats the Settings step offers (date-fns patterns, as the service formats with). */
export const DATE_FORMATS: string[] = [...SHARED_DATE_FORMATS]

/** The browser's IANA time zone ('Etc/UTC' for UTC or when it names none). */
export function browserTimeZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone
  return !zone || zone === 'UTC' ? 'Etc/UTC' : zone
}

/**
 * The offered format closest to how the locale writes a date and time: its order of day, month and
 * year, its separator, and its 12- or 24-hour clock (`de-DE` dd.MM.yyyy HH:mm, `en-US`
 * MM/dd/yyyy hh:mm a, `en-GB` dd/MM/yyyy HH:mm, `sv-SE` yyyy-MM-dd HH:mm).
 */
export function browserDateFormat(locale?: string): string {
  const parts = new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(2026, 10, 23))
  const order = parts.filter((p) => p.type === 'day' || p.type === 'month' || p.type === 'year').map((p) => p.type[0]).join('')
  const separator = parts.find((p) => p.type === 'literal')?.value.trim()
  const h12 = new Intl.DateTimeFormat(locale, { hour: 'numeric' }).resolvedOptions().hour12 === true
  if (order === 'mdy') return 'MM/dd/yyyy hh:mm a'
  if (order === 'dmy') return separator === '.' ? 'dd.MM.yyyy HH:mm' : h12 ? 'dd/MM/yyyy hh:mm a' : 'dd/MM/yyyy HH:mm'
  return h12 ? 'yyyy-MM-dd hh:mm a' : 'yyyy-MM-dd HH:mm'
}
