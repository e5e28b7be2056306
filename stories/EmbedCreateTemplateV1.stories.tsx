import type { Meta, StoryObj } from '@storybook/react-vite'
import { EmbedCreateTemplateV1 } from '../src/index.js'
import { callbacks, commonArgs, commonArgTypes, withSession } from './support/args.js'
import { tokenLoader } from './support/demo.js'
import { componentDocs } from './support/docs.js'
import { expectReady, expectRoute, frames } from './support/play.js'

const meta = {
  title: 'Legacy (v1)/EmbedCreateTemplateV1',
  component: EmbedCreateTemplateV1,
  loaders: [tokenLoader],
  render: withSession(EmbedCreateTemplateV1),
  args: { ...commonArgs(), ...callbacks('onTemplateCreated') },
  argTypes: { ...commonArgTypes, onTemplateCreated: { table: { category: 'Callbacks' } } },
  parameters: {
    docs: {
      description: {
        component: componentDocs(
          '**Deprecated** (removed 1 March 2027): use `EmbedCreateEnvelope` with `type="TEMPLATE"`. `onTemplateCreated` receives the legacy numeric `templateId`.',
          `import { EmbedCreateTemplateV1 } from 'envelope-embed'

<EmbedCreateTemplateV1
  presignToken={token}
  host="https://sign.example.com"
  onTemplateCreated={({ templateId }) => console.log('created', templateId)}
/>`,
        ),
      },
    },
  },
} satisfies Meta<typeof EmbedCreateTemplateV1>

export default meta
type Story = StoryObj<typeof meta>

export const Default: Story = {
  play: async ({ args, canvasElement }) => {
    const [iframe] = await frames(canvasElement)
    await expectRoute(iframe!, '/embed/v1/authoring/template/create')
    await expectReady(args)
  },
}
