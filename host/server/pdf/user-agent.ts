import { fill } from '../../shared/i18n.js'

/**
 * A short, readable client for people ("Chrome 124 on Windows"); the full string stays in the audit
 * log. `words` put it in the reader's language ("Chrome 124 unter Windows").
 */
export function describeClient(userAgent: string | null | undefined, words = { clientOn: '{browser} on {system}', unknownBrowser: 'Unknown browser' }): string | null {
  if (!userAgent) return null
  const ua = userAgent.slice(0, 1000)
  const browser = firstMatch(ua, [
    [/Edg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
    [/OPR\/(\d+)/, 'Opera'],
    [/SamsungBrowser\/(\d+)/, 'Samsung Internet'],
    [/Firefox\/(\d+)/, 'Firefox'],
    [/FxiOS\/(\d+)/, 'Firefox'],
    [/CriOS\/(\d+)/, 'Chrome'],
    [/HeadlessChrome\/(\d+)/, 'Headless Chrome'],
    [/Chrom(?:e|ium)\/(\d+)/, 'Chrome'],
    [/Version\/(\d+)[.\d]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
    [/^curl\/(\d+)/, 'curl'],
    [/^node(?:-fetch)?\b|undici/, 'Node.js'],
  ])
  const system = firstMatch(ua, [
    [/Windows NT/, 'Windows'],
    [/iPhone|iPad|iPod/, 'iOS'],
    [/Android/, 'Android'],
    [/CrOS/, 'ChromeOS'],
    [/Mac OS X|Macintosh/, 'macOS'],
    [/Linux/, 'Linux'],
  ])
  if (!browser && !system) return ua.length > 60 ? `${ua.slice(0, 60)}…` : ua
  return system ? fill(words.clientOn, { browser: browser ?? words.unknownBrowser, system }) : browser
}

function firstMatch(ua: string, rules: [RegExp, string][]): string | null {
  for (const [pattern, name] of rules) {
    const m = pattern.exec(ua)
    if (m) return m[1] ? `${name} ${m[1]}` : name
  }
  return null
}
