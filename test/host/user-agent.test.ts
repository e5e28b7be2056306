/**
 * How evidence documents name a client, a time and their words, in the reader's language.
 * Database: none (pure functions).
 */
import { describe, expect, it } from 'vitest'
import { evidenceText, evidenceTime } from '../../host/server/pdf/evidence-text.js'
import { describeClient } from '../../host/server/pdf/user-agent.js'

describe('describeClient', () => {
  it('names the browser and the system in a few words', () => {
    const cases: [string, string][] = [
      ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome 131 on Windows'],
      ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86', 'Edge 131 on Windows'],
      ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1', 'Safari 17 on iOS'],
      ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox 133 on Linux'],
      ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36', 'Chrome 131 on Android'],
      ['curl/8.5.0', 'curl 8'],
    ]
    for (const [ua, short] of cases) expect(describeClient(ua)).toBe(short)
    expect(describeClient(null)).toBeNull()
    expect(describeClient(`Agent ${'x'.repeat(200)}`)).toHaveLength(61)
  })

  it('in the reader\'s language', () => {
    const windows = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
    expect(describeClient(windows, evidenceText('de'))).toBe('Chrome 131 unter Windows')
    expect(describeClient(windows, evidenceText('fr'))).toBe('Chrome 131 sur Windows')
    expect(describeClient('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4)', evidenceText('fr'))).toBe('Navigateur inconnu sur macOS')
  })
})

describe('evidence times and words', () => {
  it('shows a time in the document’s format and zone, seconds added, the zone named', () => {
    const at = '2026-11-23T18:55:53.798Z'
    expect(evidenceTime(at, { dateFormat: 'dd.MM.yyyy HH:mm', timezone: 'Europe/Berlin', language: 'de' })).toBe('23.11.2026 19:55:53 (Europe/Berlin)')
    expect(evidenceTime(at, { dateFormat: 'MMMM d, yyyy h:mm a', timezone: 'America/New_York', language: 'en' })).toBe('November 23, 2026 1:55:53 PM (America/New_York)')
    expect(evidenceTime(at, { dateFormat: 'd MMMM yyyy HH:mm', timezone: 'Europe/Paris', language: 'fr' })).toBe('23 novembre 2026 19:55:53 (Europe/Paris)')
    expect(evidenceTime(null, { dateFormat: 'yyyy', timezone: 'Etc/UTC', language: 'en' })).toBe('—')
  })

  it('speaks en, de, fr and es, and English otherwise', () => {
    expect(evidenceText('de').certificate).toBe('Signaturzertifikat')
    expect(evidenceText('fr-CA').page(2, 3)).toBe('Page 2 sur 3')
    expect(evidenceText('es-MX').auditLog).toBe('Registro de auditoría')
    expect(evidenceText('ja').auditLog).toBe('監査ログ')
    expect(evidenceText('fi').auditLog).toBe('Audit log')
  })
})
