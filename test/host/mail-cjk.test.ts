/**
 * E-mails in Korean, Japanese and Chinese: the words of the document's language, its `lang` on
 * the HTML, and a signing request sent through the host for a Korean document, as stored for delivery.
 * Database: the embedded one (mail content; SQL is held on both in lifecycle.test.ts).
 */
import { render } from '../../host/server/mail/templates.js'
import { describe, expect, test as it } from './fixtures.js'
import { createEnvelope, mailed } from './support.js'

const request = { title: '임대차 계약서', teamName: '한빛 부동산', recipientName: '김민준', role: 'SIGNER' as const, signingUrl: 'https://sign.example.com/sign/tok_1' }

describe('e-mails in CJK languages', () => {
  it('writes a signing request in Korean, Japanese and Chinese by the document’s language', () => {
    const ko = render('signing-request', request, 'ko-KR')
    expect(ko.subject).toBe('“임대차 계약서” 서명 요청')
    expect(ko.text).toContain('김민준 님, 안녕하세요.')
    expect(ko.text).toContain('한빛 부동산에서 서명을 위해 “임대차 계약서”을(를) 보냈습니다.')
    expect(ko.text).toContain('문서 서명하기')
    expect(ko.html).toContain('<html lang="ko">')
    expect(render('signing-request', { ...request, title: '賃貸借契約書' }, 'ja').subject).toBe('「賃貸借契約書」への署名のお願い')
    expect(render('signing-request', { ...request, title: '租赁合同' }, 'zh-CN').subject).toBe('请签署“租赁合同”')
    expect(render('completed', { ...request, files: ['계약서 (signed).pdf'] }, 'ko').subject).toBe('“임대차 계약서”이(가) 완료되었습니다')
  })
})

describe('a Korean document’s e-mail on pglite', () => {
  it('sends the signing request in Korean', async ({ host, team: { client } }) => {
    const e = await createEnvelope(client, {
      title: '임대차 계약서',
      meta: { language: 'ko' },
      recipients: [{ name: '김민준', email: 'minjun@example.kr', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }] }],
    })
    expect((await client.post('/envelope/distribute', { envelopeId: e.id })).status).toBe(200)
    await mailed(host, e.id)
    const [mail] = await host.db.query<{ subject: string; text: string; html: string; to_address: string }>('select subject, text, html, to_address from mails where envelope_id = $1', [e.id])
    expect(mail).toMatchObject({ subject: '“임대차 계약서” 서명 요청', to_address: 'minjun@example.kr' })
    expect(mail!.text).toContain('김민준 님, 안녕하세요.')
    expect(mail!.text).toContain('이 링크는 귀하 전용입니다.')
    expect(mail!.html).toContain('<html lang="ko">')
  })
})
