import type { ComponentProps } from 'react'
import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, waitFor } from 'storybook/test'
import { EmbedCreateEnvelope } from '../src/index.js'
import {
  callbacks,
  commonArgs,
  commonArgTypes,
  featureToggleArgs,
  featureToggleArgTypes,
  withFeatureToggles,
  withSession,
  type FeatureToggleArgs,
} from './support/args.js'
import { expiredTokenLoader, tokenLoader } from './support/demo.js'
import { componentDocs } from './support/docs.js'
import { calls, expectReady, expectRoute, frames, READY_TIMEOUT } from './support/play.js'

const ROUTE = '/embed/v2/authoring/envelope/create'

const renderCreate = withSession(EmbedCreateEnvelope)

const meta = {
  title: 'Components/EmbedCreateEnvelope',
  component: EmbedCreateEnvelope,
  loaders: [tokenLoader],
  render: renderCreate,
  args: {
    ...commonArgs(),
    type: 'DOCUMENT',
    ...callbacks('onEnvelopeCreated', 'onDocumentCreated', 'onTemplateCreated'),
  },
  argTypes: {
    ...commonArgTypes,
    type: { control: 'inline-radio', options: ['DOCUMENT', 'TEMPLATE'], table: { category: 'Envelope' } },
    onEnvelopeCreated: { table: { category: 'Callbacks' } },
    onDocumentCreated: { table: { category: 'Callbacks' } },
    onTemplateCreated: { table: { category: 'Callbacks' } },
  },
  parameters: {
    docs: {
      description: {
        component: componentDocs(
          'Embeds envelope authoring: the user uploads PDFs, adds recipients, places fields and creates a document or a template. `onEnvelopeCreated` receives the new envelope id.',
          `import { EmbedCreateEnvelope } from 'envelope-embed'

export function NewContract({ token }: { token: string }) {
  return (
    <EmbedCreateEnvelope
      presignToken={token}
      host="https://sign.example.com"
      type="DOCUMENT"
      externalId="order-1042"
      onEnvelopeCreated={({ envelopeId }) => console.log('created', envelopeId)}
      onError={({ code, message }) => console.error(code, message)}
    />
  )
}`,
        ),
      },
    },
  },
} satisfies Meta<typeof EmbedCreateEnvelope>

export default meta
type Story = StoryObj<typeof meta>

export const Document: Story = {
  args: { externalId: 'order-1042' },
  play: async ({ args, canvasElement }) => {
    const [iframe] = await frames(canvasElement)
    const { options } = await expectRoute(iframe!, ROUTE)
    await expect(options).toMatchObject({ type: 'DOCUMENT', externalId: 'order-1042' })
    await expectReady(args)
  },
}

export const Template: Story = {
  name: 'Template',
  args: { type: 'TEMPLATE' },
  play: async ({ args, canvasElement }) => {
    const [iframe] = await frames(canvasElement)
    const { options } = await expectRoute(iframe!, ROUTE)
    await expect(options.type).toBe('TEMPLATE')
    await expectReady(args)
  },
}

/** Your brand in the editor: theme variables, and CSS injected into the page. */
export const WhiteLabel: Story = {
  name: 'White label (cssVars + css)',
  args: {
    cssVars: {
      background: '#fbf7f0',
      foreground: '#2b2118',
      primary: '#b4441f',
      primaryForeground: '#ffffff',
      muted: '#f3ebe0',
      mutedForeground: '#7a6a58',
      accent: '#f6e3d6',
      accentForeground: '#8a3216',
      secondary: '#efe4d6',
      secondaryForeground: '#2b2118',
      border: '#e2d5c3',
      input: '#d8c7b1',
      card: '#ffffff',
      ring: '#b4441f',
      radius: '2px',
    },
    css: `body { font-family: Georgia, 'Times New Roman', serif; }\nh1, h2 { letter-spacing: 0.02em; }`,
  },
  play: async ({ args, canvasElement }) => {
    const [iframe] = await frames(canvasElement)
    const { options } = await expectRoute(iframe!, ROUTE)
    await expect(options.cssVars).toEqual(args.cssVars)
    await expect(options.css).toBe(args.css)
    await expectReady(args)
  },
}

/** Light theme even when the user's system prefers dark. */
export const DarkModeDisabled: Story = {
  name: 'Dark mode disabled',
  args: { darkModeDisabled: true },
  play: async ({ args, canvasElement }) => {
    const [iframe] = await frames(canvasElement)
    const { options } = await expectRoute(iframe!, ROUTE)
    await expect(options.darkModeDisabled).toBe(true)
    await expectReady(args)
  },
}

/**
 * Each switch is one of the `features` toggles; all start off, so the settings step shows only
 * what cannot be turned off. Flip them to see each setting appear.
 */
export const FeatureToggles: StoryObj<ComponentProps<typeof EmbedCreateEnvelope> & FeatureToggleArgs> = {
  name: 'Feature toggles',
  args: featureToggleArgs(false),
  argTypes: featureToggleArgTypes,
  render: (args, context) => renderCreate(withFeatureToggles(args), context),
  play: async ({ args, canvasElement }) => {
    const [iframe] = await frames(canvasElement)
    const { options } = await expectRoute(iframe!, ROUTE)
    await expect(options.features).toEqual(featureToggleArgs(false))
    await expectReady(args)
  },
}

export const German: Story = {
  name: 'Language: Deutsch',
  args: { language: 'de' },
  play: async ({ args, canvasElement }) => {
    const [iframe] = await frames(canvasElement)
    const { options } = await expectRoute(iframe!, ROUTE)
    await expect(options.language).toBe('de')
    await expectReady(args)
  },
}

/** The iframe grows and shrinks with the editor's content instead of scrolling inside. */
export const AutoHeight: Story = {
  name: 'Auto height',
  args: { autoHeight: true },
  play: async ({ args, canvasElement }) => {
    const [iframe] = await frames(canvasElement)
    await expectReady(args)
    // The page reports its content height; the iframe takes it as its own.
    await waitFor(() => expect(iframe!.style.height).toMatch(/^\d+(\.\d+)?px$/), { timeout: READY_TIMEOUT })
  },
}

/** A token minted with `expiresIn: 0`: the page refuses it and `onError` says why. */
export const ExpiredToken: Story = {
  name: 'Expired token (onError)',
  loaders: [expiredTokenLoader],
  play: async ({ args, canvasElement }) => {
    await frames(canvasElement)
    await waitFor(() => expect(args.onError).toHaveBeenCalled(), { timeout: READY_TIMEOUT })
    await expect(calls(args.onError)[0]![0]).toMatchObject({ code: 'TOKEN_EXPIRED', message: expect.any(String) })
    await expect(args.onReady).not.toHaveBeenCalled()
  },
}
