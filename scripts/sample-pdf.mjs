// Writes examples/sample-contract.pdf, the document the demos offer when no file is at hand:
// a two-page services agreement with lines where a client and a provider sign. Run it again
// only to change the sample: `node scripts/sample-pdf.mjs`.
import { writeFile } from 'node:fs/promises'
import { PDFDocument, StandardFonts, rgb } from '@cantoo/pdf-lib'

const doc = await PDFDocument.create()
doc.setTitle('Sample services agreement')
doc.setCreator('envelope-embed demos')
doc.setProducer('pdf-lib')
// A fixed date keeps the file the same from run to run.
const fixed = new Date('2025-01-01T00:00:00Z')
doc.setCreationDate(fixed)
doc.setModificationDate(fixed)
const font = await doc.embedFont(StandardFonts.Helvetica)
const bold = await doc.embedFont(StandardFonts.HelveticaBold)
const ink = rgb(0.12, 0.14, 0.2)
const grey = rgb(0.42, 0.44, 0.5)

const clauses = [
  ['1. Services', 'The Provider performs the services described in the order form, with the care and skill of a professional in the field.'],
  ['2. Fees', 'The Client pays the fees in the order form within thirty days of each invoice. Late amounts bear interest at the statutory rate.'],
  ['3. Term', 'This agreement starts on the date of the last signature and runs for twelve months. Either party may end it with thirty days notice.'],
  ['4. Confidentiality', 'Each party keeps the other party\u2019s confidential information secret and uses it only to perform this agreement.'],
  ['5. Liability', 'Neither party is liable for indirect losses. Each party\u2019s total liability is limited to the fees paid in the last twelve months.'],
  ['6. Law', 'This agreement is governed by the law of the Provider\u2019s place of business. Its courts have exclusive jurisdiction.'],
]

function wrap(text, size, width) {
  const lines = []
  let line = ''
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word
    if (font.widthOfTextAtSize(next, size) > width && line) {
      lines.push(line)
      line = word
    } else line = next
  }
  if (line) lines.push(line)
  return lines
}

for (let n = 1; n <= 2; n++) {
  const page = doc.addPage([595.28, 841.89])
  page.drawText('Services agreement', { x: 60, y: 770, size: 24, font: bold, color: ink })
  page.drawText(`Sample document for the envelope-embed demos \u2014 page ${n} of 2`, { x: 60, y: 748, size: 10, font, color: grey })
  let y = 700
  const body = n === 1 ? clauses.slice(0, 3) : clauses.slice(3)
  if (n === 1) {
    for (const line of wrap('Between the Client named below and the Provider named below, who agree as follows.', 11, 475)) {
      page.drawText(line, { x: 60, y, size: 11, font, color: ink })
      y -= 16
    }
    y -= 10
  }
  for (const [heading, text] of body) {
    page.drawText(heading, { x: 60, y, size: 12, font: bold, color: ink })
    y -= 18
    for (const line of wrap(text, 11, 475)) {
      page.drawText(line, { x: 60, y, size: 11, font, color: ink })
      y -= 16
    }
    y -= 14
  }
  if (n === 2) {
    for (const [x, who] of [[60, 'Client'], [320, 'Provider']]) {
      page.drawLine({ start: { x, y: 190 }, end: { x: x + 215, y: 190 }, thickness: 1, color: grey })
      page.drawText(`${who}: signature`, { x, y: 176, size: 9, font, color: grey })
      page.drawLine({ start: { x, y: 130 }, end: { x: x + 215, y: 130 }, thickness: 1, color: grey })
      page.drawText(`${who}: name and date`, { x, y: 116, size: 9, font, color: grey })
    }
  }
}
await writeFile(new URL('../examples/sample-contract.pdf', import.meta.url), await doc.save({ useObjectStreams: true }))
console.log('examples/sample-contract.pdf written')
