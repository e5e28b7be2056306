import { useState } from 'react'
import { ct } from '../i18n/index.js'

/** The recovery codes shown once, with Copy (to the clipboard) and Download (a .txt file), one code a line. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const [copied, setCopied] = useState<boolean | null>(null)
  const text = `${ct('account.totp.codesFileHeading', { host: location.host })}\n\n${codes.join('\n')}\n`
  const copy = () =>
    void navigator.clipboard.writeText(text).then(
      () => setCopied(true),
      () => setCopied(false),
    )
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }))
    const a = document.createElement('a')
    a.href = url
    a.download = `recovery-codes-${location.hostname}.txt`
    document.body.append(a)
    a.click()
    a.remove()
    setTimeout(() => URL.revokeObjectURL(url), 1000)
  }
  return (
    <>
      <ul className="account-codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <div className="account-actions">
        <button className="btn btn-secondary" type="button" onClick={copy}>
          {ct('account.totp.codesCopy')}
        </button>
        <button className="btn btn-secondary" type="button" onClick={download}>
          {ct('account.totp.codesDownload')}
        </button>
        <span role="status" className="muted small">
          {copied === true ? ct('account.totp.codesCopied') : copied === false ? ct('account.totp.codesCopyFailed') : ''}
        </span>
      </div>
    </>
  )
}
