// The shape of a documented route, apart from openapi.ts so that openapi-deprecated.ts, which it
// imports, can use it.
import type { z } from 'zod'

export type JsonSchema = Record<string, unknown>

/** One route of API v2, as the document shows it. */
export interface RouteDoc {
  method: 'get' | 'post'
  /** OpenAPI form, after /api/v2: `/envelope/{envelopeId}`. */
  path: string
  summary: string
  tag: string
  description?: string
  /** JSON body, validated with jsonBody(c, body). */
  body?: z.ZodType
  /** multipart: the `payload` part, validated with multipartBody(c, multipart). */
  multipart?: z.ZodType
  /** The file parts' name of a multipart route (default `files`). */
  fileParts?: string
  /** The multipart's file part is one table (`file`, CSV or XLSX), not PDFs. */
  tableFile?: boolean
  /** The multipart's `payload` part may be left out (the files alone are the request). */
  payloadOptional?: boolean
  /** Query, validated with parse(query, c.req.query()). */
  query?: z.ZodObject
  /** The 200 answer: a JSON schema (or $ref), or 'pdf' / 'csv' for a download of one. */
  response: { description: string; schema?: JsonSchema } | 'pdf' | 'csv'
  /** 4xx statuses besides the default ones (401, 403, 404, and 400 when the route takes input). */
  errors?: number[]
  /** A path parameter validated with a schema (a bad value is 400 rather than 404). */
  paramChecked?: boolean
  deprecated?: boolean
  /** No API token needed. */
  public?: boolean
  /** The body is one PDF: raw (application/pdf) or the `file` part of a form. */
  pdfBody?: boolean
  /** With pdfBody: an evidence file (compact JWS) may come too, as the `evidence` part, or alone (application/jose). */
  joseBody?: boolean
  /** The 200 answer may also be a compact JWS (application/jose), as the description says when. */
  joseResponse?: boolean
}
