import type { ComponentProps } from 'react'
import type { ArgTypes, Meta, StoryObj } from '@storybook/react-vite'
import { expect, waitFor } from 'storybook/test'
import { EmbedSignDocument } from '../src/index.js'
import { callbacks, signingArgTypes } from './support/args.js'
import { hostUrl, signingLoader, type SignLoaded } from './support/demo.js'
import { withDeliveryPanel } from './support/DeliveryPanel.js'
import { componentDocs } from './support/docs.js'
import { calls, expectDelivered, expectDocumentReady, expectSignRoute, frames, READY_TIMEOUT } from './support/play.js'

type Props = ComponentProps<typeof EmbedSignDocument>
/** The props, plus which recipient of the sent document the story signs as. */
type Args = Props & { recipient: number }

const category = (name: string) => ({ table: { category: name } })

const argTypes = {
  token: {
    control: 'text',
    description:
      "The recipient's token (from `distribute`). Left empty, the story sends a fresh document through the demo backend (`POST /demo/signing`) and embeds the link of the recipient chosen in `recipient`.",
    ...category('Session'),
  },
  recipient: {
    control: { type: 'inline-radio', labels: { 0: 'Alex Signer (signer, 1st)', 1: 'Blair Approver (approver, 2nd)' } },
    options: [0, 1],
    description: 'Not a prop: whose token of the sent document the story embeds (when `token` is empty).',
    ...category('Session'),
  },
  ...signingArgTypes,
  allowDocumentRejection: { control: 'boolean', description: 'Show the reject action (our host: shown unless `false`).', ...category('Signer') },
  onDocumentRejected: category('Callbacks'),
  onWaitingForTurn: { description: "Sequential signing: it is not this recipient's turn yet; the page shows whom it waits for.", ...category('Callbacks') },
  onLinkExpired: { description: "The recipient's link passed its deadline; the page says so and refuses to act.", ...category('Callbacks') },
} satisfies Partial<ArgTypes<Args>>

/**
 * Each story's loader sends a fresh document (a signer, then an approver, in sequence) through
 * the demo backend and embeds the signing page for one of them; the delivery panel beside it
 * lists the webhook events of that document as they arrive, with the local mailbox.
 */
const meta = {
  title: 'Components/EmbedSignDocument',
  component: EmbedSignDocument,
  loaders: [signingLoader],
  decorators: [withDeliveryPanel],
  render: ({ recipient, ...args }, { loaded }) => {
    const { sent } = loaded as SignLoaded
    return <EmbedSignDocument {...args} token={args.token || sent?.recipients[recipient]?.token || ''} host={args.host || hostUrl} />
  },
  args: {
    token: '',
    recipient: 0,
    host: hostUrl,
    ...callbacks('onReady', 'onError', 'onDocumentReady', 'onDocumentCompleted', 'onDocumentRejected', 'onDocumentError', 'onWaitingForTurn', 'onLinkExpired'),
  },
  argTypes,
  parameters: {
    docs: {
      description: {
        component: componentDocs(
          "Embeds the signing of a sent document by one recipient: they read it, fill in their fields and sign, approve or reject it, without leaving your app. `onDocumentCompleted` tells you they are done; the document's own progress (sent, opened, signed, completed) reaches your backend as webhooks.",
          `import { EmbedSignDocument } from 'envelope-embed'

// \`token\`: the recipient's, from your backend (\`api.envelopes.distribute(...)\` lists one per
// recipient). Hand it only to the signed-in user it belongs to.
export function SignContract({ token, user }: { token: string; user: { name: string; email: string } }) {
  return (
    <EmbedSignDocument
      host="https://sign.example.com"
      token={token}
      name={user.name}
      lockName
      email={user.email}
      lockEmail
      onDocumentCompleted={({ envelopeId, recipientId }) => console.log('signed', envelopeId, recipientId)}
      onDocumentRejected={({ reason }) => console.log('rejected:', reason)}
      onError={({ code, message }) => console.error(code, message)}
    />
  )
}`,
          `The recipient's token is the credential: there is no presign token. These demos get one from
the demo backend, which creates and sends a document through the API with the same API key as
\`examples/backend.ts\`. The demo backend also receives the service's webhooks
(\`examples/webhook-receiver.ts\`): open a story to see them arrive beside the embed.`,
        ),
      },
    },
  },
} satisfies Meta<Args>

export default meta
type Story = StoryObj<Args>

type Loaded = { loaded: SignLoaded }
const sentOf = ({ loaded }: Loaded) => loaded.sent!

/** The first recipient, whose turn it is: the document, their fields, sign or reject. */
export const Signer: Story = {
  play: async ({ args, canvasElement, loaded }) => {
    const sent = sentOf({ loaded: loaded as SignLoaded })
    const [iframe] = await frames(canvasElement)
    const { options } = await expectSignRoute(iframe!, sent.recipients[0]!.token)
    await expect(options.parentOrigin).toBe(location.origin)
    await expectDocumentReady(args)
    await expectDelivered(canvasElement, sent.envelopeId, 'DOCUMENT_SENT')
  },
}

/**
 * The approver's link while the signer has not signed yet: the page says whose turn it is, is
 * still ready, and tells your app with `onWaitingForTurn` (show your own "we'll e-mail you" note).
 */
export const ApproverWaiting: Story = {
  name: 'Approver, waiting for the signer (onWaitingForTurn)',
  args: { recipient: 1 },
  play: async ({ args, canvasElement, loaded }) => {
    const sent = sentOf({ loaded: loaded as SignLoaded })
    const [iframe] = await frames(canvasElement)
    await expectSignRoute(iframe!, sent.recipients[1]!.token)
    await expect(sent.recipients[1]!.role).toBe('APPROVER')
    await expectDocumentReady(args)
    await waitFor(() => expect(args.onWaitingForTurn).toHaveBeenCalledTimes(1), { timeout: READY_TIMEOUT })
    await expect(args.onLinkExpired).not.toHaveBeenCalled()
    await expectDelivered(canvasElement, sent.envelopeId, 'DOCUMENT_SENT')
  },
}

export const German: Story = {
  name: 'Language: Deutsch',
  args: { language: 'de' },
  play: async ({ args, canvasElement, loaded }) => {
    const sent = sentOf({ loaded: loaded as SignLoaded })
    const [iframe] = await frames(canvasElement)
    const { options } = await expectSignRoute(iframe!, sent.recipients[0]!.token)
    await expect(options.language).toBe('de')
    await expectDocumentReady(args)
    await expectDelivered(canvasElement, sent.envelopeId, 'DOCUMENT_SENT')
  },
}

/** Your brand on the signing page: theme variables, and CSS injected into it. */
export const WhiteLabel: Story = {
  name: 'White label (cssVars + css)',
  args: {
    cssVars: {
      background: '#f4f7f5',
      foreground: '#14281d',
      primary: '#1f6f4a',
      primaryForeground: '#ffffff',
      muted: '#e3ece6',
      mutedForeground: '#557064',
      accent: '#d5eadf',
      accentForeground: '#14532d',
      border: '#cddbd2',
      input: '#b9ccc0',
      card: '#ffffff',
      ring: '#1f6f4a',
      radius: '14px',
    },
    css: `body { font-family: 'Trebuchet MS', system-ui, sans-serif; }`,
    darkModeDisabled: true,
  },
  play: async ({ args, canvasElement, loaded }) => {
    const sent = sentOf({ loaded: loaded as SignLoaded })
    const [iframe] = await frames(canvasElement)
    const { options } = await expectSignRoute(iframe!, sent.recipients[0]!.token)
    await expect(options.cssVars).toEqual(args.cssVars)
    await expect(options.css).toBe(args.css)
    await expect(options.darkModeDisabled).toBe(true)
    await expectDocumentReady(args)
    await expectDelivered(canvasElement, sent.envelopeId, 'DOCUMENT_SENT')
  },
}

/** Your app knows who is signing: the name and e-mail are filled in and cannot be changed. */
export const PrefilledAndLocked: Story = {
  name: 'Name and e-mail prefilled and locked',
  args: { name: 'Alexandra Signer', lockName: true, email: 'alexandra@example.com', lockEmail: true },
  play: async ({ args, canvasElement, loaded }) => {
    const sent = sentOf({ loaded: loaded as SignLoaded })
    const [iframe] = await frames(canvasElement)
    const { options } = await expectSignRoute(iframe!, sent.recipients[0]!.token)
    await expect(options).toMatchObject({ name: 'Alexandra Signer', lockName: true, email: 'alexandra@example.com', lockEmail: true })
    await expectDocumentReady(args)
    await expectDelivered(canvasElement, sent.envelopeId, 'DOCUMENT_SENT')
  },
}

/** No reject action: the recipient can only sign. */
export const RejectionDisabled: Story = {
  name: 'Rejection disabled',
  args: { allowDocumentRejection: false },
  play: async ({ args, canvasElement, loaded }) => {
    const sent = sentOf({ loaded: loaded as SignLoaded })
    const [iframe] = await frames(canvasElement)
    const { options } = await expectSignRoute(iframe!, sent.recipients[0]!.token)
    await expect(options.allowDocumentRejection).toBe(false)
    await expectDocumentReady(args)
    await expectDelivered(canvasElement, sent.envelopeId, 'DOCUMENT_SENT')
  },
}

const UNKNOWN_TOKEN = 'no-such-recipient-token'

/** A token the service does not know (a typo, a deleted document): the page says so, and so do the callbacks. */
export const UnknownToken: Story = {
  name: 'Unknown token (onDocumentError, onError)',
  args: { token: UNKNOWN_TOKEN },
  parameters: { deliveries: false },
  play: async ({ args, canvasElement }) => {
    const [iframe] = await frames(canvasElement)
    await expectSignRoute(iframe!, UNKNOWN_TOKEN)
    // The signing API answers 404 NOT_FOUND; the page posts its message, then embed-error INVALID_TOKEN.
    await waitFor(() => expect(args.onError).toHaveBeenCalled(), { timeout: READY_TIMEOUT })
    await expect(calls(args.onDocumentError)).toEqual([['this signing link is not valid']])
    await expect(calls(args.onError)).toEqual([[{ code: 'INVALID_TOKEN', message: 'this signing link is not valid' }]])
    await expect(args.onDocumentReady).not.toHaveBeenCalled()
    await expect(args.onReady).not.toHaveBeenCalled()
  },
}
