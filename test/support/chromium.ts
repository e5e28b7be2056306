import { existsSync } from 'node:fs'

/**
 * How every browser test launches Chromium: Debian's build where it is installed,
 * otherwise Playwright's own browser (after `npx playwright install chromium`).
 */
const SYSTEM_CHROMIUM = '/usr/bin/chromium'

export const chromiumLaunchOptions = {
  ...(existsSync(SYSTEM_CHROMIUM) ? { executablePath: SYSTEM_CHROMIUM } : {}),
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
