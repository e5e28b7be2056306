/**
 * The certificate page reads well in every case: with long names, addresses, verification words and
 * clients, verified and rejecting recipients, for 1, 3 and 20 recipients, no text run overlaps a
 * signature image or another run (placed by pdf.js as a reader places them), and each recipient's
 * history tells when the document was sent to them, opened, verified with what, and signed or rejected.
 * Database: none (the certificate and audit-log documents alone).
 */
import { deflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { certificateDocument } from '../../host/server/pdf/certificate.js'
import { auditLogDocument, type SealAuditEntry } from '../../host/server/pdf/audit-log-pdf.js'
import type { SealInput, SealRecipient } from '../../host/server/pdf/seal.js'
import { pngOf } from './hostile.js'

/** A solid PNG data URL, wide like a drawn signature. */
function png(width: number, height: number): string {
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x50)])
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))
  return `data:image/png;base64,${pngOf({ width, height, colorType: 2 }, pixels).toString('base64')}`
}

const SIGNATURE = png(300, 80)
const LONG_AGENT = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) ${'Extension/1.2.3 '.repeat(40)}Chrome/131.0.0.0 Safari/537.36`
const UNKNOWN_AGENT = `CorporateSigningGateway/${'9'.repeat(30)} (${'proxy-chain-segment;'.repeat(30)})`

/** Recipient `i` with worst-case strings: long names and addresses, every check, a signature. */
function recipient(i: number): SealRecipient {
  const kind = i % 4
  return {
    id: i + 1,
    name: `Maximiliane Alexandra Josephine von Hohenzollern-Sigmaringen-Württemberg ${i + 1} ${'Überlang'.repeat(kind === 1 ? 12 : 1)}`,
    email: `maximiliane.alexandra.josephine.${i + 1}.${'verylonglocalpart'.repeat(kind === 2 ? 6 : 1)}@subdomain.department.example-corporation.co.uk`,
    role: kind === 3 ? 'APPROVER' : 'SIGNER',
    action: kind === 3 ? 'APPROVED' : 'SIGNED',
    completedAt: '2026-11-23T18:55:53.000Z',
    ipAddress: kind === 2 ? '2001:0db8:85a3:0000:0000:8a2e:0370:7334' : '203.0.113.7',
    userAgent: kind === 1 ? UNKNOWN_AGENT : LONG_AGENT,
    signatureImage: kind === 3 ? null : SIGNATURE,
    direct: kind === 2,
    accessAuth: kind === 3 ? [] : ['ACCOUNT', 'TWO_FACTOR_AUTH'],
    actionAuth: kind === 3 ? [] : ['PASSKEY', 'PASSWORD', 'TWO_FACTOR_AUTH'],
  }
}

const entry = (type: string, at: string, recipientId: number | null, data: Record<string, unknown> = {}): SealAuditEntry => ({
  type,
  createdAt: at,
  name: null,
  email: null,
  recipientId,
  ipAddress: null,
  userAgent: null,
  data,
})

/** The audit log the host writes for these recipients: sent, e-mailed (all but the first), opened twice, verified, acted or rejected, the first mailed the completed document. */
function auditLog(recipients: SealRecipient[], rejecting: Set<number>): SealAuditEntry[] {
  const ids = recipients.map((r) => r.id!)
  return [
    entry('DOCUMENT_CREATED', '2026-11-23T18:30:00.000Z', null),
    entry('DOCUMENT_SENT', '2026-11-23T18:40:00.000Z', null, { recipients: ids }),
    ...recipients.flatMap((r, i) => [
      ...(i === 0 ? [] : [entry('EMAIL_SENT', '2026-11-23T18:41:11.000Z', null, { recipientId: r.id, emailType: 'SIGNING_REQUEST' })]),
      entry('DOCUMENT_OPENED', '2026-11-23T18:50:02.000Z', r.id!, { accessAuth: r.accessAuth }),
      entry('DOCUMENT_OPENED', '2026-11-23T18:52:00.000Z', r.id!, { accessAuth: [] }),
      rejecting.has(r.id!)
        ? entry('DOCUMENT_RECIPIENT_REJECTED', '2026-11-23T18:55:53.000Z', r.id!, { reason: `The clause on liability ${'is unacceptable and must be renegotiated '.repeat(4)}` })
        : entry('DOCUMENT_RECIPIENT_COMPLETED', '2026-11-23T18:55:53.000Z', r.id!, { actionAuth: r.actionAuth }),
    ]),
    entry('DOCUMENT_COMPLETED', '2026-11-23T19:02:31.000Z', null),
    // The completed document mailed to the first recipient, whose request went out as a link only.
    entry('EMAIL_SENT', '2026-11-23T19:03:00.000Z', null, { recipientId: recipients[0]!.id, emailType: 'DOCUMENT_COMPLETED' }),
  ]
}

function input(count: number, language = 'en'): SealInput {
  const recipients = Array.from({ length: count }, (_, i) => recipient(i))
  return {
    envelope: { id: 'envelope_k3xq9w2m', title: `Rahmenvertrag über die Lieferung ${'und Wartung '.repeat(12)}`, completedAt: '2026-11-23T19:02:31.000Z' },
    items: [{ id: 'item_1', title: `Anlage ${'mit sehr langem Dateinamen '.repeat(8)}.pdf`, pdf: new Uint8Array(), sha256: 'a'.repeat(64), sealedSha256: 'b'.repeat(64) }],
    fields: [],
    recipients,
    meta: { language, timezone: 'America/Argentina/ComodRivadavia', dateFormat: 'dd.MM.yyyy HH:mm' },
    auditLog: auditLog(recipients, new Set(count > 1 ? [2] : [])),
  }
}

type Box = { what: string; left: number; right: number; bottom: number; top: number }

/** Every text run and image of every page, as boxes in PDF points (text from just below its baseline to its ascent). */
async function boxes(pdf: Uint8Array): Promise<{ pages: Box[][]; text: string[]; size: [number, number] }> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs')
  const doc = await pdfjs.getDocument({ data: pdf.slice(), isEvalSupported: false, disableFontFace: true, verbosity: 0 }).promise
  try {
    const pages: Box[][] = []
    const text: string[] = []
    let size: [number, number] = [0, 0]
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n)
      const { width, height } = page.getViewport({ scale: 1 })
      size = [width, height]
      const onPage: Box[] = []
      const content = await page.getTextContent()
      text.push(content.items.map((i) => ('str' in i ? i.str : '')).join('\n'))
      for (const item of content.items) {
        if (!('str' in item) || !item.str.trim()) continue
        const [a, , , d, x, y] = item.transform as number[]
        const fontSize = Math.max(Math.abs(a!), Math.abs(d!))
        onPage.push({ what: item.str, left: x!, right: x! + item.width, bottom: y! - 0.2 * fontSize, top: y! + 0.75 * fontSize })
      }
      const ops = await page.getOperatorList()
      let ctm = [1, 0, 0, 1, 0, 0]
      const stack: number[][] = []
      ops.fnArray.forEach((fn, i) => {
        const args = ops.argsArray[i]
        if (fn === pdfjs.OPS.save) stack.push(ctm)
        else if (fn === pdfjs.OPS.restore) ctm = stack.pop()!
        else if (fn === pdfjs.OPS.transform) ctm = pdfjs.Util.transform(ctm, args)
        else if (fn === pdfjs.OPS.paintImageXObject) {
          const xs = [ctm[4]!, ctm[4]! + ctm[0]! + ctm[2]!]
          const ys = [ctm[5]!, ctm[5]! + ctm[1]! + ctm[3]!]
          onPage.push({ what: '[signature image]', left: Math.min(...xs), right: Math.max(...xs), bottom: Math.min(...ys), top: Math.max(...ys) })
        }
      })
      pages.push(onPage)
    }
    return { pages, text, size }
  } finally {
    await doc.destroy()
  }
}

const overlaps = (a: Box, b: Box) => a.left < b.right - 0.01 && b.left < a.right - 0.01 && a.bottom < b.top - 0.01 && b.bottom < a.top - 0.01

async function render(count: number, language?: string) {
  const doc = await certificateDocument(input(count, language))
  return boxes(await doc.save())
}

describe('certificate layout', () => {
  /** Asserts that no two boxes of a page intersect and that all lie on the page. */
  function expectClear(pages: Box[][], size: [number, number]): void {
    for (const boxesOnPage of pages) {
      const clashes: string[] = []
      boxesOnPage.forEach((a, i) => {
        for (const b of boxesOnPage.slice(i + 1)) if (overlaps(a, b)) clashes.push(`${JSON.stringify(a.what)} × ${JSON.stringify(b.what)}`)
        // Inside the page (the footer and running head sit in the 56-point margin, not outside the page).
        expect(a.left).toBeGreaterThanOrEqual(20)
        expect(a.right).toBeLessThanOrEqual(size[0] - 20)
        expect(a.bottom).toBeGreaterThanOrEqual(20)
        expect(a.top).toBeLessThanOrEqual(size[1] - 20)
      })
      expect(clashes).toEqual([])
    }
  }

  it.each([1, 3, 20])('places no text run over a signature or another run, within the page, with %i recipient(s)', async (count) => {
    const { pages, size } = await render(count)
    const images = pages.flat().filter((b) => b.what === '[signature image]')
    expect(images).toHaveLength(Array.from({ length: count }, (_, i) => recipient(i)).filter((r) => r.signatureImage).length)
    expectClear(pages, size)
    if (count === 20) expect(pages.length).toBeGreaterThan(3)
  })

  it('flows a recipient taller than a page onto the next pages without leaving a page empty', async () => {
    const data = input(2)
    data.recipients[1] = { ...data.recipients[1]!, name: 'Name '.repeat(200), email: `${'x'.repeat(400)}@example.com`, userAgent: 'Agent/1 '.repeat(120) }
    const { pages, size } = await boxes(await (await certificateDocument(data)).save())
    expectClear(pages, size)
    // Every page has more than its running head and footer (3 runs: head, note, page number).
    for (const onPage of pages) expect(onPage.length).toBeGreaterThan(5)
  })

  it('lays out the audit-log pages the same way: a long time zone wraps in the time column', async () => {
    const data = input(3)
    const doc = await auditLogDocument({ envelope: data.envelope, locale: data.meta!, entries: data.auditLog!, generatedAt: data.envelope.completedAt })
    const { pages, size } = await boxes(await doc.save())
    expectClear(pages, size)
  })

  it('tells each recipient’s history: sent by e-mail or link created, opened, verified with what, signed or rejected with the reason', async () => {
    const { text } = await render(3)
    const all = text.join('\n')
    // In the document's date format and zone, with seconds.
    expect(all).toContain('23.11.2026 15:41:11')
    expect(all).toContain('(America/Argentina/ComodRivadavia)')
    // The first recipient was mailed nothing: their link was handed out.
    expect(all).toContain('Signing link created (not sent by e-mail)')
    expect(all).toContain('Signing link handed out by the sender')
    expect(all.match(/E-mail sent/g)).toHaveLength(2)
    expect(all).toContain('Completed document sent by e-mail')
    expect(all.match(/^Opened$/gm)).toHaveLength(3) // the first time only, though each opened twice
    expect(all).toContain('Verified to open with account sign-in, one-time code')
    expect(all).toContain('Verified to act with passkey, account password, one-time code')
    expect(all).toMatch(/Rejected\. Reason: The clause on liability/)
    expect(all).toContain('Signed')
    expect(all).not.toContain('Document completed') // the header states completion; the history is the recipient's
  })

  it('speaks German and French in the history', async () => {
    const de = (await render(3, 'de')).text.join('\n')
    expect(de).toContain('Signierlink erstellt')
    expect(de).toContain('Zum Öffnen verifiziert mit Kontoanmeldung, Einmalcode')
    expect(de).toMatch(/Abgelehnt\. Grund:/)
    const fr = (await render(3, 'fr')).text.join('\n')
    expect(fr).toContain('Vérifié pour agir avec clé d’accès')
    expect(fr).toMatch(/Refusé\. Motif ?: The clause/)
  })
})
