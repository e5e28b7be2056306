import { defineConfig } from 'vitest/config'
import { playwright } from '@vitest/browser-playwright'
import { chromiumLaunchOptions } from '../support/chromium.js'

const here = import.meta.dirname

// The library in real Chromium against a scripted frame on other origins (lib-browser), and
// what needs Node itself: server rendering with no window, the protocol, the built package (lib-node).
export default defineConfig({
  test: {
    projects: [
      {
        // Known up front, so the optimizer never reloads a test run and leaves two Reacts.
        optimizeDeps: { include: ['react', 'react-dom', 'react-dom/client', 'react-dom/server', 'react/jsx-dev-runtime', 'react/jsx-runtime'] },
        test: {
          name: 'lib-browser',
          root: here,
          include: ['browser/**/*.test.{ts,tsx}'],
          globalSetup: ['./frame-server.ts'],
          testTimeout: 20_000,
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({ launchOptions: chromiumLaunchOptions }),
            instances: [{ browser: 'chromium' }],
            screenshotFailures: false,
          },
        },
      },
      {
        test: {
          name: 'lib-node',
          root: here,
          include: ['node/**/*.test.{ts,tsx}'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
    ],
  },
})
