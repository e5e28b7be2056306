/**
 * Search and filter text of the list routes (API v2's `GET /envelope`, the deprecated
 * `/document` and `/template` lists, the console's documents list, the attachment list's
 * `token`): one validator, so that whatever a caller types is an answer (a 200, or a 400
 * INVALID_REQUEST naming the parameter) and never a database error. Refused: a NUL or an unpaired
 * surrogate (PostgreSQL's text cannot hold them), and any other control character (a search has
 * no use for one, and it would reach the full-text query as it is). Wildcards and punctuation
 * stay: the search treats them as text (domain/envelope/lookup.ts, searchCondition).
 */
import { z } from 'zod'
import { UNSTORABLE } from './http.js'

/** C0 and C1 controls and DEL; tab and line breaks are spaces to a search, and trimmed at its ends. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/

export const searchText = (o: { min?: number; max: number }) =>
  z
    .string()
    .trim()
    .min(o.min ?? 0)
    .max(o.max)
    .refine((s) => !UNSTORABLE.test(s), 'must not hold a NUL character or an unpaired surrogate')
    .refine((s) => !CONTROL.test(s), 'must not hold control characters')

/** What the envelope lists search: words of the title, or of a recipient's name or e-mail address. */
export const SearchQuery = searchText({ max: 200 })
