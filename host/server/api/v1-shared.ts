/**
 * What the API v1 routes share: legacy documents and templates found by their number (only those
 * with internal_version 1: API v1 serves legacy documents only, docs/api-notes.md "API v1"), the v1 field names
 * and the v1 views of resources. Nothing here decides a rule.
 */
import { z } from 'zod'
import { signPath } from '../../../src/protocol/index.js'
import type { Principal } from '../auth/principal.js'
import type { Queryable } from '../db/index.js'
import { notFound } from '../errors.js'
import { WITHHELD_LINK } from '../domain/recipient/link-holders.js'
import type { Envelope, EnvelopeRow } from '../domain/common/rows.js'
import { legacyEnvelope, newFieldNames, resolve, type Kind } from './deprecated-shared.js'
import { publicOrigin, type Ctx } from './http.js'
import type { HostContext } from '../context.js'
import { numericParam } from './recipient.js'

/** internal_version of the envelopes API v1 serves. */
export const LEGACY = 1

/**
 * The legacy document or template with this number; an envelope made by /envelope/create
 * (internal_version 2), or the other kind's number, is 404 as if it did not exist.
 */
export async function resolveV1(db: Queryable, p: Principal, kind: Kind, n: number): Promise<EnvelopeRow> {
  const e = await resolve(db, p, kind, n)
  if (e.internal_version !== LEGACY) throw notFound(kind)
  return e
}

/** The legacy number in a path parameter (anything but a positive integer is 404). */
export const pathNumber = (c: Ctx, name: string, what: string) => numericParam(c.req.param(name) ?? '', what)

/** v1 field names: pageNumber/pageX/pageY (as the deprecated v2 routes) and pageWidth/pageHeight. */
export function v1FieldNames(entry: unknown): unknown {
  const out = newFieldNames(entry)
  if (typeof out !== 'object' || out === null || Array.isArray(out)) return out
  const o = { ...(out as Record<string, unknown>) }
  for (const [from, to] of [
    ['pageWidth', 'width'],
    ['pageHeight', 'height'],
  ] as const) {
    if (from in o) {
      if (!(to in o)) o[to] = o[from]
      delete o[from]
    }
  }
  return o
}

type LegacyView = ReturnType<typeof legacyEnvelope>
type LegacyFieldView = NonNullable<LegacyView['fields']>[number]

/** A field as v1 answers: the legacy field (pageNumber, pageX, pageY, documentId) plus pageWidth/pageHeight. */
export const v1Field = <F extends { width: number; height: number }>(f: F) => ({ ...f, pageWidth: f.width, pageHeight: f.height })

/** A document or template as v1 answers: the legacy view (id = legacy number) with v1 fields. */
export function v1Envelope(env: Envelope) {
  const view = legacyEnvelope(env)
  return view.fields ? { ...view, fields: view.fields.map((f: LegacyFieldView) => v1Field(f)) } : view
}

/** A recipient with its signing link, as v1's create answers (none where the token is withheld: domain/recipient/link-holders.ts). */
export const withSigningUrl = <R extends { id: number; token: string }>(ctx: HostContext, c: Ctx, r: R) => ({
  ...r,
  recipientId: r.id,
  signingUrl: r.token ? publicOrigin(ctx, c) + signPath('page', r.token) : WITHHELD_LINK,
})

export const V1ListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  perPage: z.coerce.number().int().min(1).max(100).default(10),
})

