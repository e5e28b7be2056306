import { useCallback, useEffect, useState } from 'react'
import type { Account } from '../../../../shared/console-contract.js'
import { consoleApi } from '../api.js'
import { ct } from '../i18n/index.js'
import { ConfirmIdentity } from './ConfirmIdentity.js'
import { ErrorAlert, messageOf } from './parts.js'
import { PasskeysSection } from './PasskeysSection.js'
import { PasswordSection } from './PasswordSection.js'
import { ProfileSection } from './ProfileSection.js'
import { SessionsSection } from './SessionsSection.js'
import { TwoFactorSection } from './TwoFactorSection.js'

/** `/console/account`: the signed-in person's name, password, sessions, two-factor and passkeys. */
export function AccountPage() {
  const [data, setData] = useState<Account | null>(null)
  const [error, setError] = useState<string | null>(null)
  const load = useCallback(async () => {
    try {
      setData(await consoleApi('/account'))
    } catch (err) {
      setError(messageOf(err))
    }
  }, [])
  useEffect(() => void load(), [load])

  return (
    <div className="account-page stack">
      <h1>{ct('account.page.title')}</h1>
      <ErrorAlert error={error} />
      <ConfirmIdentity />
      {!data ? (
        <p role="status">{ct('account.loading')}</p>
      ) : (
        <>
          <ProfileSection user={data.user} />
          <PasswordSection hasPassword={data.user.hasPassword} onChanged={load} />
          <TwoFactorSection totp={data.totp} onChanged={load} />
          <PasskeysSection passkeys={data.passkeys} onChanged={load} />
          <SessionsSection sessions={data.sessions} onChanged={load} />
        </>
      )}
    </div>
  )
}
