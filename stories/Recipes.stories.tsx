import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, waitFor } from 'storybook/test'
import { EmbedCreateEnvelope, EmbedProvider } from '../src/index.js'
import { callbacks } from './support/args.js'
import { hostUrl, presign, type Loaded } from './support/demo.js'
import { calls, embedUrl, frames, READY_TIMEOUT } from './support/play.js'

const spies = () => callbacks('onDocumentReady', 'onTemplateReady', 'onDocumentCreated', 'onTemplateCreated', 'onError')
type Args = ReturnType<typeof spies> & { host: string; language: string; darkModeDisabled: boolean }

const meta = {
  title: 'Recipes/Several embeds',
  tags: ['!autodocs'],
  args: { host: hostUrl, language: 'en', darkModeDisabled: false, ...spies() },
  argTypes: {
    host: { control: 'text', description: 'Set once on `EmbedProvider` for both embeds.' },
    language: { control: 'select', options: ['en', 'de'] },
    darkModeDisabled: { control: 'boolean' },
  },
} satisfies Meta<Args>

export default meta
type Story = StoryObj<Args>

/**
 * Two editors side by side, each with its own token, sharing host and options through
 * `EmbedProvider`. Each one's callbacks fire only for its own iframe.
 */
export const TwoEmbeds: Story = {
  name: 'Two embeds on one page',
  loaders: [async () => ({ token: await presign(), second: await presign() })],
  render: (args, { loaded }) => {
    const { token, second } = loaded as Loaded & { second: string }
    return (
      <EmbedProvider host={args.host} language={args.language} darkModeDisabled={args.darkModeDisabled}>
        <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 16 }}>
          <EmbedCreateEnvelope
            presignToken={token}
            type="DOCUMENT"
            externalId="left"
            title="New document"
            style={{ width: '100%', height: 720 }}
            onReady={args.onDocumentReady}
            onDocumentCreated={args.onDocumentCreated}
            onError={args.onError}
          />
          <EmbedCreateEnvelope
            presignToken={second}
            type="TEMPLATE"
            externalId="right"
            title="New template"
            style={{ width: '100%', height: 720 }}
            onReady={args.onTemplateReady}
            onTemplateCreated={args.onTemplateCreated}
            onError={args.onError}
          />
        </div>
      </EmbedProvider>
    )
  },
  play: async ({ args, canvasElement }) => {
    const [left, right] = await frames(canvasElement, 2)
    await expect(embedUrl(left!).options).toMatchObject({ type: 'DOCUMENT', externalId: 'left' })
    await expect(embedUrl(right!).options).toMatchObject({ type: 'TEMPLATE', externalId: 'right' })
    await expect(embedUrl(left!).origin).toBe(new URL(hostUrl).origin)
    await waitFor(() => expect(args.onDocumentReady).toHaveBeenCalled(), { timeout: READY_TIMEOUT })
    await waitFor(() => expect(args.onTemplateReady).toHaveBeenCalled(), { timeout: READY_TIMEOUT })
    // One ready each: neither embed took the other's message.
    await expect(calls(args.onDocumentReady)).toHaveLength(1)
    await expect(calls(args.onTemplateReady)).toHaveLength(1)
    await expect(args.onError).not.toHaveBeenCalled()
  },
}
