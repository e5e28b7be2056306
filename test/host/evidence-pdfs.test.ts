/**
 * The evidence a completed document carries, end to end: the PAdES seal with a
 * timestamp from the configured server, the certificate in the document's language, time zone and
 * date format, the audit log appended as the meta options ask, and both downloadable on their own.
 * Database: the embedded one (the seal and the evidence are made from the rows, not by the database).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseSignedData } from '../../host/server/pdf/cms.js'
import { OID } from '../../host/server/pdf/der.js'
import { extractSignature, hasTool, pdfsig } from '../support/outside-checks.js'
import { pdfText, verifyPdfSignature } from '../support/pdf-signature.js'
import { makeTestCa } from '../support/test-pki.js'
import { startTsa, type TsaServer } from '../support/tsa-server.js'
import { api, completeOneSigner, startTestHost, VARIANTS, type Api, type TestHost } from './support.js'

const HAS_PDFSIG = hasTool('pdfsig')

describe.each(VARIANTS.filter((v) => v.variant === 'pglite'))('evidence PDFs on $variant', ({ variant, skip }) => {
  let host: TestHost
  let client: Api
  let tsa: TsaServer

  beforeAll(async () => {
    if (skip) return
    tsa = await startTsa(makeTestCa('evidence test timestamp root').issue('evidence test TSA', 'timestamping'))
    host = await startTestHost(variant, { sealing: { subFilter: 'ETSI.CAdES.detached', tsaUrls: [tsa.url] } })
    client = api(host.apiUrl, `Bearer ${(await host.createApiToken({ name: 'tests' })).token}`)
  })
  afterAll(async () => {
    await host?.stop()
    await tsa?.close()
  })

  const AGENT = { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36' }
  const complete = (meta: Record<string, unknown>) =>
    completeOneSigner(host, client, { title: 'Mietvertrag', meta, signer: { name: 'Jana Weiß', email: 'jana@example.com' } }, AGENT)

  it.skipIf(skip)('seals with a signature timestamp and appends certificate and audit log in the document’s language and time', async () => {
    const { id, itemId } = await complete({ language: 'de', timezone: 'Europe/Berlin', dateFormat: 'dd.MM.yyyy HH:mm', includeAuditLog: true })
    const pdf = (await client.get(`/envelope/item/${itemId}/download`)).body as Uint8Array
    expect(verifyPdfSignature(pdf)).toMatchObject({ digestOk: true, signatureOk: true, coversWholeFileExceptContents: true })
    const signed = parseSignedData(extractSignature(pdf).cms)
    expect(signed.signer.unsignedAttributes.has(OID.signatureTimeStampToken)).toBe(true)
    if (HAS_PDFSIG) {
      const report = pdfsig(pdf)
      for (const line of ['Signature Type: ETSI.CAdES.detached', 'Signature is Valid.', 'Total document signed']) expect(report).toContain(line)
    }

    const pages = await pdfText(pdf)
    const certificate = pages.findIndex((p) => p.includes('Signaturzertifikat'))
    const log = pages.findIndex((p) => p.includes('Prüfprotokoll'))
    expect(certificate).toBe(2) // after the two pages of the document
    expect(log).toBeGreaterThan(certificate)
    const text = pages.slice(certificate).join('\n')
    expect(text).toMatch(/\d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d \(Europe\/Berlin\)/)
    expect(text).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/)
    expect(text).toContain('Chrome 131 unter Windows')
    expect(text).toContain('Unterschrieben')
    expect(text).toContain('Geöffnet')
    expect(text).toContain('Link per E-Mail an diese Adresse')
    expect(text).toContain('Demonstrationssiegel')
    // Page numbers count the certificate's own pages.
    expect(pages[certificate]).toMatch(/Seite 1 von 1/)

    const alone = (await client.get(`/envelope/${id}/audit-log/download`)).body as Uint8Array
    expect(verifyPdfSignature(alone)).toMatchObject({ digestOk: true, signatureOk: true })
    const logText = (await pdfText(alone)).join('\n')
    expect(logText).toContain('Prüfprotokoll')
    expect(logText).toContain('Dokument versandt')
    expect(logText).toContain('jana@example.com')

    const certificatePdf = (await client.get(`/envelope/${id}/certificate/download`)).body as Uint8Array
    expect((await pdfText(certificatePdf)).join('\n')).toContain('SHA-256 wie versiegelt')
  })

  it.skipIf(skip)('leaves out the certificate when includeSigningCertificate is false, and the audit log by default', async () => {
    const { itemId } = await complete({ includeSigningCertificate: false })
    const pages = await pdfText((await client.get(`/envelope/item/${itemId}/download`)).body)
    expect(pages).toHaveLength(2)
    const { itemId: other } = await complete({})
    const withCertificate = await pdfText((await client.get(`/envelope/item/${other}/download`)).body)
    expect(withCertificate).toHaveLength(3)
    expect(withCertificate[2]).toContain('Signing certificate')
    expect(withCertificate.join('\n')).not.toContain('Audit log')
  })

  it.skipIf(skip)('answers 404 for the audit log of an unknown envelope, in the error shape', async () => {
    const res = await client.get('/envelope/envelope_doesnotexist/audit-log/download')
    expect(res.status).toBe(404)
    expect(res.body).toMatchObject({ message: expect.any(String), code: expect.any(String) })
  })
})
