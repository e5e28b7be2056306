/** The browser's half of the passkey ceremonies; the server's is people/passkeys.ts. */
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser'
import { consoleApi } from '../api.js'

export const passkeysSupported = () => browserSupportsWebAuthn()

/** Signs in with any passkey of this site (no address typed), or proves the second factor with one of the account's. */
export async function passkeyAssertion(kind: 'sign-in' | 'second-factor'): Promise<void> {
  const base = kind === 'sign-in' ? '/auth/passkey' : '/auth/second-factor/passkey'
  const { challengeId, options } = await consoleApi(`${base}/options`, { body: {} })
  const response = await startAuthentication({ optionsJSON: options })
  await consoleApi(`${base}/verify`, { body: { challengeId, response } })
}

export async function registerPasskey(name: string): Promise<void> {
  const { challengeId, options } = await consoleApi('/account/passkeys/options', { body: {} })
  const response = await startRegistration({ optionsJSON: options })
  await consoleApi('/account/passkeys', { body: { challengeId, response, name } })
}
