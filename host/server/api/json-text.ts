/**
 * JSON request bodies as the host takes them: parsed under the rules of parseJsonText, on the
 * request loop only while the body is small (PARSE_ON_LOOP_MAX), in the heavy-work threads
 * otherwise (workers/heavy-tasks.ts `json`), so no body, whoever sends it, holds the loop for
 * longer than a small one does. What a thread parsed comes back as a structured clone, whose
 * reading costs the loop about what parsing did: so a thread also refuses shapes no request of the
 * API has (MAX_JSON_VALUES values, MAX_JSON_KEYS keys in one object), which costs the most to read,
 * and does so from a scan of the bytes before parsing them (jsonShapeRefusal), so a hostile body
 * holds a thread for milliseconds, not the seconds its parsing takes.
 */
import { runHeavy } from '../workers/heavy.js'
import { PARSE_ON_LOOP_MAX, parseJsonText, type ParsedJson } from '../workers/json-parse.js'

export { MAX_JSON_DEPTH, MAX_JSON_KEYS, MAX_JSON_VALUES, PARSE_ON_LOOP_MAX, UNSTORABLE, parseJsonText, jsonShapeRefusal, type ParsedJson } from '../workers/json-parse.js'

/** A body's bytes parsed: here when small, else in a heavy-work thread (the bytes move there, not copied). */
export async function parseJsonBytes(bytes: Uint8Array): Promise<ParsedJson> {
  if (bytes.byteLength <= PARSE_ON_LOOP_MAX) return parseJsonText(new TextDecoder().decode(bytes))
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice()
  return runHeavy('json', { bytes: own }, { transfer: [own.buffer as ArrayBuffer], failure: (why) => new Error(`the body cannot be parsed: ${why}`) }).catch((err: Error) => {
    // A thread that died on it (out of memory) refuses the body; a full queue (503) stays what it is.
    if ('status' in err) throw err
    return { error: 'too large to parse' }
  })
}
