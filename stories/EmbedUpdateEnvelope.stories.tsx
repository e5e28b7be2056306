import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect } from 'storybook/test'
import { EmbedUpdateEnvelope } from '../src/index.js'
import { callbacks, commonArgs, commonArgTypes, updateArgTypes, withSession } from './support/args.js'
import { envelopeLoader } from './support/demo.js'
import { componentDocs } from './support/docs.js'
import { embedUrl, expectReady, expectRoute, frames } from './support/play.js'

/**
 * Each story first creates an envelope through the API (on the demo backend: a one-page PDF, one
 * signer with a signature and a date field), then mints a token scoped to exactly that envelope.
 */
const meta = {
  title: 'Components/EmbedUpdateEnvelope',
  component: EmbedUpdateEnvelope,
  loaders: [envelopeLoader('DOCUMENT', 'envelopeId')],
  render: withSession(EmbedUpdateEnvelope, (loaded) => ({ envelopeId: loaded.envelope!.envelopeId })),
  args: { ...commonArgs(), envelopeId: '', ...callbacks('onEnvelopeUpdated') },
  argTypes: {
    ...commonArgTypes,
    ...updateArgTypes,
    envelopeId: {
      control: 'text',
      description: 'The envelope to edit (`envelope_...`). Left empty, the story creates one through the API.',
      table: { category: 'Envelope' },
    },
    onEnvelopeUpdated: { table: { category: 'Callbacks' } },
  },
  parameters: {
    docs: {
      description: {
        component: componentDocs(
          'Embeds the editor for an existing envelope (document or template): files, recipients, fields and settings, prefilled. Mint the token with `scope: "envelopeId:<id>"` so it can touch nothing else.',
          `import { EmbedUpdateEnvelope } from 'envelope-embed'

export function EditContract({ token, envelopeId }: { token: string; envelopeId: string }) {
  return (
    <EmbedUpdateEnvelope
      presignToken={token} // minted with scope \`envelopeId:\${envelopeId}\`
      host="https://sign.example.com"
      envelopeId={envelopeId}
      onEnvelopeUpdated={({ envelopeId }) => console.log('saved', envelopeId)}
    />
  )
}`,
        ),
      },
    },
  },
} satisfies Meta<typeof EmbedUpdateEnvelope>

export default meta
type Story = StoryObj<typeof meta>

export const Document: Story = {
  name: 'Document created through the API',
  play: async ({ args, canvasElement, loaded }) => {
    const [iframe] = await frames(canvasElement)
    await expectRoute(iframe!, `/embed/v2/authoring/envelope/edit/${loaded.envelope.envelopeId}`)
    await expectReady(args)
  },
}

export const Template: Story = {
  name: 'Template created through the API',
  loaders: [envelopeLoader('TEMPLATE', 'envelopeId')],
  play: async ({ args, canvasElement, loaded }) => {
    const [iframe] = await frames(canvasElement)
    await expectRoute(iframe!, `/embed/v2/authoring/envelope/edit/${loaded.envelope.envelopeId}`)
    await expectReady(args)
  },
}

/** Opens straight on the fields step; recipients are locked. */
export const OnlyEditFields: Story = {
  name: 'Only edit fields',
  args: { onlyEditFields: true },
  play: async ({ args, canvasElement }) => {
    const [iframe] = await frames(canvasElement)
    await expect(embedUrl(iframe!).options.onlyEditFields).toBe(true)
    await expectReady(args)
  },
}
