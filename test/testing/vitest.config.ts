import { defineConfig } from 'vitest/config'

// envelope-embed/testing as a customer uses it: Testing Library in a simulated DOM (happy-dom),
// no browser, no service.
export default defineConfig({
  test: {
    name: 'testing',
    root: import.meta.dirname,
    include: ['**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
  },
})
