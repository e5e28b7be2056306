/**
 * A right-to-left language's certificate and audit log: every row is drawn in visual order, so a
 * reader (pdf.js, as viewers do) extracts the Hebrew words in their logical order, and the rows end
 * at the right margin instead of starting at the left one.
 * Database: none (the PDF drawing alone).
 */
import { describe, expect, it } from 'vitest'
import { certificateDocument } from '../../host/server/pdf/certificate.js'
import type { SealInput } from '../../host/server/pdf/seal.js'
import { visualOrder } from '../../host/server/pdf/visual-order.js'

const recipient = { id: 1, name: 'דנה כהן', email: 'dana@example.com', role: 'SIGNER', action: 'SIGNED', completedAt: '2026-11-23T18:55:53.000Z', ipAddress: '203.0.113.7', userAgent: null, signatureImage: null, direct: false, accessAuth: [], actionAuth: [] } as const

function input(language: string): SealInput {
  return {
    envelope: { id: 'envelope_k3xq9w2m', title: 'הסכם שכירות', completedAt: '2026-11-23T19:02:31.000Z' },
    items: [{ id: 'item_1', title: 'חוזה.pdf', pdf: new Uint8Array(), sha256: 'a'.repeat(64), sealedSha256: 'b'.repeat(64) }],
    fields: [],
    recipients: [{ ...recipient, accessAuth: [...recipient.accessAuth], actionAuth: [...recipient.actionAuth] }],
    meta: { language, timezone: 'Asia/Jerusalem', dateFormat: 'dd.MM.yyyy HH:mm' },
    auditLog: [],
  }
}

/** The first page's text runs as pdf.js reads them, with where each starts and ends. */
async function runs(pdf: Uint8Array): Promise<{ runs: { str: string; left: number; right: number }[]; width: number }> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs')
  const doc = await pdfjs.getDocument({ data: pdf.slice(), isEvalSupported: false, disableFontFace: true, verbosity: 0 }).promise
  try {
    const page = await doc.getPage(1)
    const content = await page.getTextContent()
    const found = content.items.flatMap((i) => ('str' in i && i.str.trim() ? [{ str: i.str, left: i.transform[4] as number, right: (i.transform[4] as number) + i.width }] : []))
    return { runs: found, width: page.getViewport({ scale: 1 }).width }
  } finally {
    await doc.destroy()
  }
}

describe('right-to-left evidence documents', () => {
  it('orders a mixed line as it is read: Hebrew runs turned round, Latin and numbers kept', () => {
    expect(visualOrder('עמוד 1 מתוך 3', 'rtl')).toBe('3 ךותמ 1 דומע')
    expect(visualOrder('SHA-256 בשליחה', 'rtl')).toBe('החילשב SHA-256')
    expect(visualOrder('Page 1 of 3', 'ltr')).toBe('Page 1 of 3')
  })

  it('a Hebrew certificate reads in logical order and its rows end at the right margin', async () => {
    const { runs: he, width } = await runs(await (await certificateDocument(input('he'))).save())
    const title = he.find((r) => r.str === 'תעודת חתימה')
    expect(title, he.map((r) => r.str).join(' | ')).toBeDefined()
    expect(he.some((r) => r.str === 'חוזה.pdf')).toBe(true)
    expect(he.some((r) => r.str === 'דנה כהן')).toBe(true)
    expect(Math.abs(title!.right - (width - 56))).toBeLessThan(1)

    // The same certificate in English keeps its rows starting at the left margin.
    const { runs: en } = await runs(await (await certificateDocument(input('en'))).save())
    expect(Math.abs(en.find((r) => r.str === 'Signing certificate')!.left - 56)).toBeLessThan(1)
  })
})
