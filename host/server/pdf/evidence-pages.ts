/**
 * What follows a document's own pages in its sealed copy, as the document's settings ask:
 * the signing certificate (includeSigningCertificate, default on) and the audit log
 * (includeAuditLog, default off), in that order.
 */
import type { PDFDocument } from '@cantoo/pdf-lib'
import { appendAuditLog } from './audit-log-pdf.js'
import { appendCertificate, certificateContent, certificatePageSize } from './certificate.js'
import { DEFAULT_LOCALE } from './evidence-text.js'
import type { SealInput } from './seal-input.js'
import type { TextFont } from './text-font.js'

export async function appendEvidence(doc: PDFDocument, input: SealInput, font: TextFont, demonstration: boolean): Promise<void> {
  const size = certificatePageSize(doc)
  if (input.meta?.includeSigningCertificate ?? true) await appendCertificate(doc, certificateContent(input, demonstration), font, size)
  if (input.meta?.includeAuditLog ?? false) {
    appendAuditLog(
      doc,
      { envelope: input.envelope, locale: input.meta ?? DEFAULT_LOCALE, entries: input.auditLog ?? [], generatedAt: input.envelope.completedAt, chainHead: input.auditChainHead },
      font,
      size,
    )
  }
}
