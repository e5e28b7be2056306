import { PDFDocument, StandardFonts, rgb } from '@cantoo/pdf-lib'

/** A real PDF of `pages` A4 pages with a heading and some body text on each. */
export async function makePdf(title: string, pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const bold = await doc.embedFont(StandardFonts.HelveticaBold)
  for (let n = 1; n <= pages; n++) {
    const page = doc.addPage([595.28, 841.89])
    page.drawText(title, { x: 60, y: 770, size: 22, font: bold, color: rgb(0.1, 0.12, 0.2) })
    page.drawText(`Page ${n} of ${pages}`, { x: 60, y: 745, size: 11, font, color: rgb(0.4, 0.4, 0.45) })
    for (let line = 0; line < 18; line++)
      page.drawText('This agreement is made between the parties named below and sets out the terms they accept.', {
        x: 60, y: 700 - line * 18, size: 10, font, color: rgb(0.25, 0.25, 0.3),
      })
    page.drawLine({ start: { x: 60, y: 160 }, end: { x: 260, y: 160 }, thickness: 1, color: rgb(0.5, 0.5, 0.55) })
    page.drawText('Signature', { x: 60, y: 145, size: 9, font, color: rgb(0.4, 0.4, 0.45) })
  }
  return Buffer.from(await doc.save())
}

export const pdfFile = async (name: string, pages: number) => ({ name, mimeType: 'application/pdf', buffer: await makePdf(name.replace(/\.pdf$/, ''), pages) })
