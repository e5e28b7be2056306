import { existsSync } from 'node:fs'

/**
 * How every browser test launches Chromium: Debian's headless shell where it is installed (the
 * same engine as its `chromium`, without the desktop browser's interface and services; about a
 * third less CPU and wall time on the browser tests, docs/testing.md), then
 * Debian's `chromium`, otherwise Playwright's own browser (after `npx playwright install chromium`).
 * `CHROMIUM_BIN` names another build.
 */
const CANDIDATES = [process.env.CHROMIUM_BIN, '/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium']
const executablePath = CANDIDATES.find((path): path is string => !!path && existsSync(path))

export const chromiumLaunchOptions = {
  ...(executablePath ? { executablePath } : {}),
  headless: true,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
}
