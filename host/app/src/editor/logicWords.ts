/**
 * What the shared check and formula parser say (in English, as the server says it too), in the
 * user's language: the usual messages by their pattern; any other as it is.
 */
import { t, type MessageKey } from '../i18n/index.js'

const PATTERNS: [RegExp, MessageKey, string[]][] = [
  [/^No field is labelled "(.*)"$/s, 'logic.issue.missing', ['label']],
  [/^(\d+) fields are labelled "(.*)": give them different labels$/s, 'logic.issue.ambiguous', ['count', 'label']],
  [/^A (?:formula|condition) cannot refer to its own field$/, 'logic.issue.self', []],
  [/^Circular reference: (.*)$/s, 'logic.issue.cycle', ['fields']],
  [/^The test "\w+" compares numbers: "(.*)" is not a number$/s, 'logic.issue.notNumber', ['value']],
  [/^"(.*)" is not one of the options of "(.*)"$/s, 'logic.issue.notOption', ['value', 'label']],
  [/^The test "\w+" needs a value$/, 'logic.issue.needsValue', []],
  [/^A formula reads NUMBER and CHECKBOX fields only; "(.*)" is a \w+ field$/s, 'logic.issue.formulaReads', ['label']],
  [/^Only a NUMBER field can have a formula/, 'logic.issue.onlyNumber', []],
  [/^(.*) \(at character (\d+)\)$/s, 'logic.formulaError', ['message', 'at']],
  [/^The formula ends too early$/, 'logic.parse.early', []],
  [/^A "\(" is not closed$/, 'logic.parse.unclosed', []],
  [/^Unknown function "(.*)"$/s, 'logic.parse.unknownFunction', ['name']],
  [/^Unexpected character (.*)$/s, 'logic.parse.character', ['what']],
  [/^Unexpected (.*)$/s, 'logic.parse.unexpected', ['what']],
]

/** The message in the user's language where it is a known one; as it is otherwise. */
export function logicMessage(message: string): string {
  for (const [pattern, key, names] of PATTERNS) {
    const found = pattern.exec(message)
    if (!found) continue
    const params = Object.fromEntries(names.map((name, n) => [name, found[n + 1] ?? '']))
    // A parse error with its position: the error itself is translated too.
    if (key === 'logic.formulaError') params.message = logicMessage(params.message!)
    return t(key, params)
  }
  return message
}
