import type { Meta, StoryObj } from '@storybook/react-vite'
import { EmbedCreateDocumentV1 } from '../src/index.js'
import { callbacks, commonArgs, commonArgTypes, withSession } from './support/args.js'
import { tokenLoader } from './support/demo.js'
import { componentDocs } from './support/docs.js'
import { expectReady, expectRoute, frames } from './support/play.js'

const meta = {
  title: 'Legacy (v1)/EmbedCreateDocumentV1',
  component: EmbedCreateDocumentV1,
  loaders: [tokenLoader],
  render: withSession(EmbedCreateDocumentV1),
  args: { ...commonArgs(), ...callbacks('onDocumentCreated') },
  argTypes: { ...commonArgTypes, onDocumentCreated: { table: { category: 'Callbacks' } } },
  parameters: {
    docs: {
      description: {
        component: componentDocs(
          '**Deprecated** (removed 1 March 2027): use `EmbedCreateEnvelope` with `type="DOCUMENT"`. `onDocumentCreated` receives the legacy numeric `documentId`.',
          `import { EmbedCreateDocumentV1 } from 'envelope-embed'

<EmbedCreateDocumentV1
  presignToken={token}
  host="https://sign.example.com"
  onDocumentCreated={({ documentId }) => console.log('created', documentId)}
/>`,
        ),
      },
    },
  },
} satisfies Meta<typeof EmbedCreateDocumentV1>

export default meta
type Story = StoryObj<typeof meta>

export const Default: Story = {
  play: async ({ args, canvasElement }) => {
    const [iframe] = await frames(canvasElement)
    await expectRoute(iframe!, '/embed/v1/authoring/document/create')
    await expectReady(args)
  },
}
