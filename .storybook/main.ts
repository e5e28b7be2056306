import { fileURLToPath } from 'node:url'
import type { StorybookConfig } from '@storybook/react-vite'
import { demoBackend } from './demo-backend.js'

const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url))

const config: StorybookConfig = {
  framework: '@storybook/react-vite',
  // Not the root vite.config.ts: that one builds the library.
  core: {
    builder: { name: '@storybook/builder-vite', options: { viteConfigPath: root('.storybook/vite.config.ts') } },
    // Nothing leaves the machine: no telemetry, no "what's new" feed, no crash reports.
    disableTelemetry: true,
    disableWhatsNewNotifications: true,
    enableCrashReports: false,
  },
  stories: ['../stories/**/*.mdx', '../stories/**/*.stories.tsx'],
  addons: ['@storybook/addon-docs', '@storybook/addon-vitest'],
  // A product demo, not a Storybook tutorial: no onboarding checklist in the sidebar.
  features: { sidebarOnboardingChecklist: false },
  // The components' props are TypeScript types; this reader turns them into the docs tables.
  typescript: {
    reactDocgen: 'react-docgen-typescript',
    reactDocgenTypescriptOptions: {
      include: ['src/**/*.tsx', 'src/**/*.ts'],
      shouldExtractLiteralValuesFromEnum: true,
      // Keep the table to our props, not every attribute React allows on an iframe.
      propFilter: (prop) => !prop.parent || !/node_modules/.test(prop.parent.fileName),
    },
  },
  async viteFinal(config) {
    const { mergeConfig } = await import('vite')
    return mergeConfig(config, {
      resolve: {
        alias: [
          { find: /^envelope-embed$/, replacement: root('src/index.ts') },
          { find: /^envelope-embed\/server$/, replacement: root('src/server/index.ts') },
        ],
      },
      plugins: [demoBackend()],
    })
  },
}

export default config
