import type { ComponentProps } from 'react'
import type { ArgTypes, Meta, StoryObj } from '@storybook/react-vite'
import { expect } from 'storybook/test'
import { EmbedDirectTemplate } from '../src/index.js'
import { callbacks, signingArgTypes } from './support/args.js'
import { directLoader, hostUrl, type DirectLoaded } from './support/demo.js'
import { componentDocs } from './support/docs.js'
import { embedUrl, expectDocumentReady, expectSignRoute, frames } from './support/play.js'

type Args = ComponentProps<typeof EmbedDirectTemplate>

const category = (name: string) => ({ table: { category: name } })

const argTypes = {
  token: {
    control: 'text',
    description:
      "The direct link's token (`directLink.token` of the template). Left empty, the story makes a fresh template with a direct link through the demo backend (`POST /demo/direct`).",
    ...category('Session'),
  },
  externalId: { control: 'text', description: 'The external id of the document the visitor makes (sent as `?externalId=`).', ...category('Session') },
  ...signingArgTypes,
  onFieldSigned: category('Callbacks'),
  onFieldUnsigned: category('Callbacks'),
} satisfies Partial<ArgTypes<Args>>

/** Each story's loader makes a fresh template with a direct link for its signer, so each render can be signed. */
const meta = {
  title: 'Components/EmbedDirectTemplate',
  component: EmbedDirectTemplate,
  loaders: [directLoader],
  render: (args, { loaded }) => {
    const { link } = loaded as DirectLoaded
    return <EmbedDirectTemplate {...args} token={args.token || link?.token || ''} host={args.host || hostUrl} />
  },
  args: {
    token: '',
    host: hostUrl,
    ...callbacks('onReady', 'onError', 'onDocumentReady', 'onDocumentCompleted', 'onDocumentError', 'onFieldSigned', 'onFieldUnsigned'),
  },
  argTypes,
  parameters: {
    docs: {
      description: {
        component: componentDocs(
          "Embeds a template's direct link: anyone you show it to fills in and signs the template's part for one recipient, gives their name and e-mail, and a document is made from the template for them, then sent on to the template's other recipients. `onDocumentCompleted` gives you the new document's ids and the visitor's own signing token on it.",
          `import { EmbedDirectTemplate } from 'envelope-embed'

// \`token\`: the template's \`directLink.token\` (POST /api/v2/template/direct/create makes one).
// Unlike a recipient token it is public: anyone with it can sign a new copy of the template.
export function JoinForm({ user }: { user?: { name: string; email: string } }) {
  return (
    <EmbedDirectTemplate
      host="https://sign.example.com"
      token="the-template-direct-link-token"
      externalId={\`signup-\${crypto.randomUUID()}\`}
      name={user?.name}
      email={user?.email}
      lockEmail={!!user}
      onDocumentCompleted={({ envelopeId, documentId }) => console.log('signed', envelopeId, documentId)}
      onError={({ code, message }) => console.error(code, message)}
    />
  )
}`,
          `The link is shared too, as a page: \`{host}/d/{token}\`. These demos get a fresh template and
link from the demo backend, which uses the same API key as \`examples/backend.ts\`.`,
        ),
      },
    },
  },
} satisfies Meta<Args>

export default meta
type Story = StoryObj<Args>

const linkOf = (loaded: unknown) => (loaded as DirectLoaded).link!

/** The visitor sees the template's fields for its signer and is asked for their details at the end. */
export const Visitor: Story = {
  play: async ({ args, canvasElement, loaded }) => {
    const [iframe] = await frames(canvasElement)
    const { options } = await expectSignRoute(iframe!, linkOf(loaded).token, 'direct')
    await expect(options.parentOrigin).toBe(location.origin)
    await expectDocumentReady(args)
  },
}

/** Your app knows the visitor: the e-mail is filled in and locked; the new document carries your external id. */
export const KnownVisitor: Story = {
  name: 'Known visitor (e-mail locked, external id)',
  args: { name: 'Casey Customer', email: 'casey@example.com', lockEmail: true, externalId: 'signup-1001' },
  play: async ({ args, canvasElement, loaded }) => {
    const [iframe] = await frames(canvasElement)
    const { options } = await expectSignRoute(iframe!, linkOf(loaded).token, 'direct')
    await expect(options).toMatchObject({ name: 'Casey Customer', email: 'casey@example.com', lockEmail: true })
    await expect(new URL(iframe!.src).searchParams.get('externalId')).toBe('signup-1001')
    await expectDocumentReady(args)
  },
}

export const French: Story = {
  name: 'Language: Français',
  args: { language: 'fr' },
  play: async ({ args, canvasElement, loaded }) => {
    const [iframe] = await frames(canvasElement)
    await expectSignRoute(iframe!, linkOf(loaded).token, 'direct')
    await expect(embedUrl(iframe!).options.language).toBe('fr')
    await expectDocumentReady(args)
  },
}
