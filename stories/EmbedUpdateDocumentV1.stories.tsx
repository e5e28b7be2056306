import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect } from 'storybook/test'
import { EmbedUpdateDocumentV1 } from '../src/index.js'
import { callbacks, commonArgs, commonArgTypes, updateArgTypes, withSession } from './support/args.js'
import { envelopeLoader } from './support/demo.js'
import { componentDocs } from './support/docs.js'
import { embedUrl, expectReady, expectRoute, frames } from './support/play.js'

/** Each story first creates a document through the API and mints a token scoped to `documentId:N`. */
const meta = {
  title: 'Legacy (v1)/EmbedUpdateDocumentV1',
  component: EmbedUpdateDocumentV1,
  loaders: [envelopeLoader('DOCUMENT', 'legacy')],
  render: withSession(EmbedUpdateDocumentV1, (loaded) => ({ documentId: loaded.envelope!.legacyId })),
  args: { ...commonArgs(), documentId: 0, ...callbacks('onDocumentUpdated') },
  argTypes: {
    ...commonArgTypes,
    ...updateArgTypes,
    documentId: {
      control: { type: 'number', min: 0 },
      description: 'Legacy numeric id (`document_42` -> 42). Left at 0, the story creates a document through the API.',
      table: { category: 'Envelope' },
    },
    onDocumentUpdated: { table: { category: 'Callbacks' } },
  },
  parameters: {
    docs: {
      description: {
        component: componentDocs(
          '**Deprecated** (removed 1 March 2027): use `EmbedUpdateEnvelope`. Edits a document by its legacy numeric id; mint the token with `scope: "documentId:<id>"`.',
          `import { EmbedUpdateDocumentV1 } from 'envelope-embed'

<EmbedUpdateDocumentV1
  presignToken={token} // minted with scope \`documentId:\${documentId}\`
  host="https://sign.example.com"
  documentId={42}
  onDocumentUpdated={({ documentId }) => console.log('saved', documentId)}
/>`,
        ),
      },
    },
  },
} satisfies Meta<typeof EmbedUpdateDocumentV1>

export default meta
type Story = StoryObj<typeof meta>

export const Default: Story = {
  play: async ({ args, canvasElement, loaded }) => {
    const [iframe] = await frames(canvasElement)
    await expectRoute(iframe!, `/embed/v1/authoring/document/edit/${loaded.envelope.legacyId}`)
    await expectReady(args)
  },
}

export const OnlyEditFields: Story = {
  name: 'Only edit fields',
  args: { onlyEditFields: true },
  play: async ({ args, canvasElement }) => {
    const [iframe] = await frames(canvasElement)
    await expect(embedUrl(iframe!).options.onlyEditFields).toBe(true)
    await expectReady(args)
  },
}
