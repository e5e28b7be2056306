/** A passkey in memory for the host tests: no browser, no authenticator, a real ES256 key. */
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto'

/** A passkey held in memory: its COSE public key for the passkeys table, and assertions over a challenge. */
export function softPasskey() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const jwk = publicKey.export({ format: 'jwk' })
  // COSE_Key {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}, in CBOR.
  const cose = Buffer.concat([Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]), Buffer.from(jwk.x!, 'base64url'), Buffer.from([0x22, 0x58, 0x20]), Buffer.from(jwk.y!, 'base64url')])
  const id = randomBytes(16).toString('base64url')
  let counter = 0
  const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest()
  return {
    id,
    cose,
    assert(challenge: string, origin: string) {
      const count = Buffer.alloc(4)
      count.writeUInt32BE(++counter)
      // rpIdHash, flags (user present and verified), counter.
      const authenticatorData = Buffer.concat([sha256(new URL(origin).hostname), Buffer.from([0x05]), count])
      const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge, origin, crossOrigin: false }))
      const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), privateKey)
      const b64 = (b: Buffer) => b.toString('base64url')
      return { id, rawId: id, type: 'public-key', clientExtensionResults: {}, response: { authenticatorData: b64(authenticatorData), clientDataJSON: b64(clientDataJSON), signature: b64(signature) } }
    },
  }
}
