import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { playwright } from '@vitest/browser-playwright'
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin'
import { chromiumLaunchOptions } from '../support/chromium.js'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

// Every story of stories/ runs as a test in Chromium: it renders, its loaders fetch real presign
// tokens from the demo backend (mounted in this Vite server by .storybook/demo-backend.ts) for a
// host started by global-setup.ts, and its play function asserts on the embed.
export default defineConfig({
  plugins: [storybookTest({ configDir: here('../../.storybook') })],
  test: {
    name: 'stories',
    globalSetup: [here('./global-setup.ts')],
    // A safety net for a busy machine: a story waits for its page with READY_TIMEOUT (stories/support/play.ts).
    testTimeout: 180_000,
    browser: {
      enabled: true,
      headless: true,
      provider: playwright({ launchOptions: chromiumLaunchOptions }),
      instances: [{ browser: 'chromium' }],
    },
  },
})
