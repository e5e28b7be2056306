import { defineConfig } from 'vitest/config'
import { playwright } from '@vitest/browser-playwright'
import { chromiumLaunchOptions } from '../support/chromium.js'
import { commands } from './commands.js'

// The library in real Chromium, against a scripted frame served on other origins (frame-server.ts).
// What needs Node (server rendering with no window, the package build) runs through `commands`.
export default defineConfig({
  // Known up front, so the optimizer never reloads a test run and leaves two Reacts.
  optimizeDeps: { include: ['react', 'react-dom', 'react-dom/client', 'react-dom/server', 'react/jsx-dev-runtime', 'react/jsx-runtime'] },
  test: {
    name: 'lib',
    root: import.meta.dirname,
    include: ['browser/**/*.test.{ts,tsx}'],
    globalSetup: ['./frame-server.ts'],
    testTimeout: 20_000,
    browser: {
      enabled: true,
      headless: true,
      provider: playwright({ launchOptions: chromiumLaunchOptions }),
      instances: [{ browser: 'chromium' }],
      screenshotFailures: false,
      commands,
    },
  },
})
