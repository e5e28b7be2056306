import type { Meta, StoryObj } from '@storybook/react-vite'
import { EmbedUpdateTemplateV1 } from '../src/index.js'
import { callbacks, commonArgs, commonArgTypes, updateArgTypes, withSession } from './support/args.js'
import { envelopeLoader } from './support/demo.js'
import { componentDocs } from './support/docs.js'
import { expectReady, expectRoute, frames } from './support/play.js'

/** Each story first creates a template through the API and mints a token scoped to `templateId:N`. */
const meta = {
  title: 'Legacy (v1)/EmbedUpdateTemplateV1',
  component: EmbedUpdateTemplateV1,
  loaders: [envelopeLoader('TEMPLATE', 'legacy')],
  render: withSession(EmbedUpdateTemplateV1, (loaded) => ({ templateId: loaded.envelope!.legacyId })),
  args: { ...commonArgs(), templateId: 0, ...callbacks('onTemplateUpdated') },
  argTypes: {
    ...commonArgTypes,
    ...updateArgTypes,
    templateId: {
      control: { type: 'number', min: 0 },
      description: 'Legacy numeric id (`template_7` -> 7). Left at 0, the story creates a template through the API.',
      table: { category: 'Envelope' },
    },
    onTemplateUpdated: { table: { category: 'Callbacks' } },
  },
  parameters: {
    docs: {
      description: {
        component: componentDocs(
          '**Deprecated** (removed 1 March 2027): use `EmbedUpdateEnvelope`. Edits a template by its legacy numeric id; mint the token with `scope: "templateId:<id>"`.',
          `import { EmbedUpdateTemplateV1 } from 'envelope-embed'

<EmbedUpdateTemplateV1
  presignToken={token} // minted with scope \`templateId:\${templateId}\`
  host="https://sign.example.com"
  templateId={7}
  onTemplateUpdated={({ templateId }) => console.log('saved', templateId)}
/>`,
        ),
      },
    },
  },
} satisfies Meta<typeof EmbedUpdateTemplateV1>

export default meta
type Story = StoryObj<typeof meta>

export const Default: Story = {
  play: async ({ args, canvasElement, loaded }) => {
    const [iframe] = await frames(canvasElement)
    await expectRoute(iframe!, `/embed/v1/authoring/template/edit/${loaded.envelope.legacyId}`)
    await expectReady(args)
  },
}
