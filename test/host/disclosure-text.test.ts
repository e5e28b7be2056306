/**
 * The default disclosure for consent to sign electronically is the server's, kept in editions whose
 * words never change: the hash each released edition gave in each language is pinned here, so a
 * hash stored in an audit trail still names its text. A new wording is a new edition (with its
 * hashes added below), never an edit of a released one.
 * Database: none (the texts alone).
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { DEFAULT_DISCLOSURE_EDITIONS, defaultDisclosure, defaultDisclosureOf } from '../../host/server/consent/disclosure-text.js'
import { LANGUAGE_CODES } from '../../host/shared/languages.js'

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')

/** Released editions: edition, then language, then the SHA-256 recorded for consents to it. */
const RELEASED: Record<number, Record<string, string>> = {
  1: {
    en: '02bc858b7b47e040b88e69b9fc2a9a1a5d4cdfb8ce8267e6f5e42b58a8ac69b5',
    de: '875044551d72430c4ce78f983c43746acbe252f602a3aff7c89f71d707a3d313',
    fr: '3c9fb791567a98953e6e710d701c1e3286995ad0305d7805e1bafba9c8dee5a3',
    es: '7ba1915a74781bff01769d0d2f233b6e28e187ee47d41a347d24220706c6af32',
    it: '137373b713237dbbb3edd8fa7307aecb75ba92bd64a0929b3da1312db6645aae',
    nl: 'f50a91d194c2510ec3a724e102ee7d34f2b55cbd4407c3625d443c8729d12e1e',
    pl: '5ad43080c0c0afe82641eb7e27f2cd22ae8f33030ce4aa5f9f31f35c0a76c78b',
    'pt-BR': '3414b78255aa91c5d2e555830c3b26025195f69b9e811e6d69eaee73476e45fb',
    he: '080b71faaf834d3f9d5c99a7625e8c36030b7b25de6cfd09234bf3cf32b9803b',
    ja: '1117dd23a8ee2e7a2b88bd30b9cf8b9ed512dc3d7ec240ad74735635822958d0',
    ko: '1f4341a28c611c5d6320479d699fc66441d4d64e945c1ab7c686186351582c56',
    zh: 'aa6b21085a4b00101a36d6f3d279efaac90aa81882d90913df1a4d79f341b801',
  },
}

describe('the default disclosure', () => {
  it('keeps the words of every released edition: each hash stored for one still names its text', () => {
    for (const e of DEFAULT_DISCLOSURE_EDITIONS) {
      expect(RELEASED[e.edition], `edition ${e.edition}: pin its hashes here`).toBeDefined()
      const hashes = Object.fromEntries(Object.entries(e.text).map(([code, text]) => [code, sha(text)]))
      expect(hashes, `edition ${e.edition}`).toEqual(RELEASED[e.edition])
      for (const [code, hash] of Object.entries(RELEASED[e.edition]!)) expect(defaultDisclosureOf(hash)).toMatchObject({ edition: e.edition, language: code, sha256: hash })
    }
    // Editions are counted from 1 without a gap; none released is dropped.
    expect(DEFAULT_DISCLOSURE_EDITIONS.map((e) => e.edition)).toEqual(Object.keys(RELEASED).map(Number))
    expect(defaultDisclosureOf(sha('Our own terms.'))).toBeNull()
  })

  it('is the last edition, in every language spoken, with English for another', () => {
    const last = DEFAULT_DISCLOSURE_EDITIONS.at(-1)!
    for (const code of LANGUAGE_CODES) expect(defaultDisclosure(code)).toEqual({ edition: last.edition, language: code, text: last.text[code], sha256: sha(last.text[code]) })
    expect(defaultDisclosure('de-CH').language).toBe('de')
    expect(defaultDisclosure('xx').language).toBe('en')
    // What every text says: one paragraph each for the scope, paper, withdrawing, what is needed, the copy.
    for (const code of LANGUAGE_CODES) expect(last.text[code].split('\n\n'), code).toHaveLength(5)
  })
})
