import { useRef, useState, type CSSProperties } from 'react'
import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { EmbedCreateEnvelope, EmbedProvider, EmbedSignDocument, EmbedUpdateEnvelope, type DocumentCompletedEvent, type DocumentRejectedEvent } from '../src/index.js'
import { callbacks } from './support/args.js'
import {
  createSampleDraft,
  DemoError,
  distributeDemoEnvelope,
  hostUrl,
  presign,
  sendDemoDocument,
  signedPdfUrl,
  type Loaded,
  type SentEnvelope,
  type SentRecipient,
} from './support/demo.js'
import { WithDeliveries } from './support/DeliveryPanel.js'
import {
  calls,
  embedUrl,
  expectDelivered,
  expectReady,
  expectRoute,
  expectSignRoute,
  frames,
  READY_TIMEOUT,
} from './support/play.js'

const spies = () =>
  callbacks(
    'onDocumentReady',
    'onTemplateReady',
    'onDocumentCreated',
    'onTemplateCreated',
    'onError',
    // The whole loop: the editor, then the signing page.
    'onReady',
    'onEnvelopeCreated',
    'onSignReady',
    'onDocumentCompleted',
    'onDocumentRejected',
    'onDocumentError',
  )
type Args = ReturnType<typeof spies> & { host: string; language: string; darkModeDisabled: boolean }

const meta = {
  title: 'Recipes',
  tags: ['!autodocs'],
  args: { host: hostUrl, language: 'en', darkModeDisabled: false, ...spies() },
  argTypes: {
    host: { control: 'text', description: 'Set once on `EmbedProvider` for every embed of the story.' },
    language: { control: 'select', options: ['en', 'de', 'fr'] },
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

// ---- the whole loop --------------------------------------------------------------------------

type Step =
  | { at: 'create' }
  /** A draft to finish: the sample contract, or one the service would not send yet (kept, not lost). */
  | { at: 'edit'; envelopeId: string; token: string }
  | { at: 'sending'; envelopeId: string }
  | { at: 'sign'; sent: SentEnvelope; current: number; done: number[] }
  | { at: 'completed'; sent: SentEnvelope }
  | { at: 'rejected'; sent: SentEnvelope; by: string; reason: string }

/** Who must act, in their turn: everyone but CC, by signing order (unset last), then as listed. */
function actors(sent: SentEnvelope): SentRecipient[] {
  const order = (r: SentRecipient) => r.signingOrder ?? Number.MAX_SAFE_INTEGER
  return sent.recipients.filter((r) => r.role !== 'CC').sort((a, b) => order(a) - order(b))
}

/**
 * Create a document in the editor, send it, sign it as each recipient in turn, download the
 * sealed PDF: what a customer's app does with three components and four backend routes. The
 * delivery panel beside it lists the webhook events the service sends along the way.
 */
function Loop({ args, token, start }: { args: Args; token?: string; start?: SentEnvelope }) {
  const [step, setStep] = useState<Step>(start ? { at: 'sign', sent: start, current: actors(start)[0]?.id ?? 0, done: [] } : { at: 'create' })
  const [problem, setProblem] = useState<string>()
  // What is under way, as its progress text, shown from the moment it starts. One at a time: a
  // start while one runs is ignored here, not only by a disabled button (a second click can land
  // before the button is disabled).
  const [busy, setBusy] = useState<string>()
  const running = useRef(false)
  const once = (progress: string, action: () => Promise<void>) => {
    if (running.current) return
    running.current = true
    setBusy(progress)
    void action().finally(() => {
      running.current = false
      setBusy(undefined)
    })
  }

  // Your backend sends it (POST /envelope/distribute) and keeps the recipients' tokens. A refusal
  // keeps the draft: the user finishes it in the editor and it is sent again; nothing is lost and
  // no draft is left behind.
  const send = (envelopeId: string) =>
    once(`Sending ${envelopeId}…`, async () => {
      setProblem(undefined)
      setStep({ at: 'sending', envelopeId })
      try {
        const sent = await distributeDemoEnvelope(envelopeId)
        setStep({ at: 'sign', sent, current: actors(sent)[0]?.id ?? 0, done: [] })
      } catch (e) {
        setProblem(refusal(e))
        setStep({ at: 'edit', envelopeId, token: await presign({ scope: `envelopeId:${envelopeId}` }) })
      }
    })

  const created = ({ envelopeId }: { envelopeId: string }) => {
    args.onEnvelopeCreated({ envelopeId })
    send(envelopeId)
  }

  const useSample = () =>
    once(PREPARING_SAMPLE, async () => {
      setProblem(undefined)
      try {
        const { envelopeId } = await createSampleDraft()
        setStep({ at: 'edit', envelopeId, token: await presign({ scope: `envelopeId:${envelopeId}` }) })
      } catch (e) {
        setProblem(refusal(e))
      }
    })

  const completed = (event: DocumentCompletedEvent) => {
    args.onDocumentCompleted(event)
    if (step.at !== 'sign') return
    const done = [...step.done, step.current]
    const next = actors(step.sent).find((r) => !done.includes(r.id))
    setStep(next ? { ...step, current: next.id, done } : { at: 'completed', sent: step.sent })
  }

  const rejected = (event: DocumentRejectedEvent) => {
    args.onDocumentRejected(event)
    if (step.at !== 'sign') return
    const by = step.sent.recipients.find((r) => r.id === step.current)?.name ?? 'the recipient'
    setStep({ at: 'rejected', sent: step.sent, by, reason: event.reason })
  }

  const envelopeId = step.at === 'create' ? undefined : step.at === 'sending' || step.at === 'edit' ? step.envelopeId : step.sent.envelopeId
  const number = step.at === 'create' || step.at === 'edit' ? 1 : step.at === 'sending' || step.at === 'sign' ? 2 : 3

  return (
    <EmbedProvider host={args.host} language={args.language} darkModeDisabled={args.darkModeDisabled} onError={args.onError}>
      <WithDeliveries envelopeId={envelopeId}>
        <ol aria-label="Steps" style={styles.steps}>
          {['Create the document', 'Sign it', 'Download the sealed PDF'].map((label, i) => (
            <li key={label} aria-current={number === i + 1 ? 'step' : undefined} style={{ ...styles.step, ...(number === i + 1 && styles.current) }}>
              {i + 1}. {label}
            </li>
          ))}
        </ol>
        {problem && (
          <p role="alert" style={styles.problem}>
            {problem}
          </p>
        )}
        {/* Always there, so what starts is announced as it starts. */}
        <p role="status" aria-label="Progress" aria-busy={busy !== undefined} style={styles.status}>
          {busy}
        </p>

        {step.at === 'create' && (
          <p style={styles.hint}>
            No PDF at hand?{' '}
            <button type="button" onClick={useSample} disabled={busy !== undefined} aria-busy={busy === PREPARING_SAMPLE} style={{ ...styles.link, ...(busy && styles.waiting) }}>
              Start from the sample contract
            </button>{' '}
            (
            <a href={SAMPLE_PDF} download="Sample contract.pdf">
              download it
            </a>{' '}
            to drop it in the editor yourself).
          </p>
        )}

        {step.at === 'edit' && (
          <EmbedUpdateEnvelope
            key={step.envelopeId}
            presignToken={step.token}
            envelopeId={step.envelopeId}
            style={{ width: '100%', height: 760 }}
            onReady={args.onReady}
            onEnvelopeUpdated={() => send(step.envelopeId)}
          />
        )}

        {/* Put away while the sample is prepared: what is made there would have to wait for it. */}
        {step.at === 'create' && token && busy !== PREPARING_SAMPLE && (
          <EmbedCreateEnvelope
            presignToken={token}
            type="DOCUMENT"
            title="New document"
            style={{ width: '100%', height: 760 }}
            onReady={args.onReady}
            onEnvelopeCreated={created}
          />
        )}

        {step.at === 'sign' && (
          <>
            <div role="group" aria-label="Recipients" style={styles.recipients}>
              {step.sent.recipients.map((r) => {
                const acts = r.role !== 'CC'
                const done = step.done.includes(r.id)
                return (
                  <button
                    key={r.id}
                    type="button"
                    aria-pressed={r.id === step.current}
                    onClick={() => setStep({ ...step, current: r.id })}
                    style={{ ...styles.recipient, ...(r.id === step.current && styles.chosen) }}
                  >
                    <strong>{r.name || r.email}</strong> <span style={styles.role}>{r.role.toLowerCase()}</span>
                    {done ? ' ✓' : !acts ? ' (copy)' : ''}
                  </button>
                )
              })}
            </div>
            <p style={styles.hint}>
              Signing as the recipient chosen above, with their own token. In your app each recipient signs in their own session;
              switching here shows each one&apos;s view (someone whose turn has not come sees who is still to act).
            </p>
            <EmbedSignDocument
              token={step.sent.recipients.find((r) => r.id === step.current)?.token ?? ''}
              autoHeight
              style={{ width: '100%', minHeight: 640 }}
              onReady={args.onSignReady}
              onDocumentCompleted={completed}
              onDocumentRejected={rejected}
              onDocumentError={args.onDocumentError}
            />
          </>
        )}

        {step.at === 'completed' && (
          <div style={styles.result}>
            <p>Everyone has done their part: the service sealed the document and e-mailed it to the recipients (see the local mailbox).</p>
            <p>
              <a href={signedPdfUrl(step.sent.envelopeId)} target="_blank" rel="noreferrer">
                Download the sealed PDF
              </a>{' '}
              (through the demo backend: <code>GET /envelope/item/{'{id}'}/download?version=signed</code>)
            </p>
          </div>
        )}

        {step.at === 'rejected' && (
          <div role="status" style={styles.result}>
            <p>
              {step.by} rejected the document: “{step.reason}”. Nobody else can act on it now.
            </p>
          </div>
        )}
      </WithDeliveries>
    </EmbedProvider>
  )
}

/**
 * Step 1 is the real editor: upload a PDF, add a recipient with a signature field, create. The
 * story then sends the document and opens step 2, signing as each recipient in turn, and step 3,
 * the sealed PDF. The webhook events and the local mailbox are beside it.
 */
export const WholeLoop: Story = {
  name: 'The whole loop',
  loaders: [async () => ({ token: await presign() })],
  render: (args, { loaded }) => <Loop args={args} token={(loaded as Loaded).token} />,
  // The editor is on another origin: the test can check that it is there and ready, not fill it in.
  play: async ({ args, canvasElement }) => {
    const [iframe] = await frames(canvasElement)
    const { options } = await expectRoute(iframe!, '/embed/v2/authoring/envelope/create')
    await expect(options.type).toBe('DOCUMENT')
    await expectReady(args)
    await expect(within(canvasElement).getByRole('listitem', { current: 'step' })).toHaveTextContent('1. Create the document')
    await expect(within(canvasElement).getByRole('link', { name: 'Local mailbox' })).toHaveAttribute('href', `${hostUrl}/mailbox`)
  },
}

/**
 * The loop from the sample contract: its first click says at once that the draft is being
 * prepared, and a second click meanwhile makes no second draft.
 */
export const FromSample: Story = {
  name: 'The whole loop, from the sample contract',
  render: (args) => <Loop args={args} />,
  play: async ({ args, canvasElement }) => {
    const canvas = within(canvasElement)
    // The drafts asked of the demo backend, each held until the progress has been checked: what
    // is seen before the draft exists does not depend on how fast the service is.
    const drafts: string[] = []
    let release = () => {}
    const held = new Promise<void>((r) => (release = r))
    const real = window.fetch
    window.fetch = async (input, init) => {
      if (String(input instanceof Request ? input.url : input).endsWith('/demo/envelope')) {
        drafts.push(String(init?.body))
        await held
      }
      return real(input, init)
    }
    const progress = () => canvas.getByRole('status', { name: 'Progress' })
    try {
      const start = canvas.getByRole('button', { name: 'Start from the sample contract' })
      // Two clicks in one go: the second lands before React has disabled the button.
      start.click()
      start.click()
      await waitFor(() => expect(progress()).toHaveTextContent('Preparing the sample contract…'))
      await expect(progress()).toHaveAttribute('aria-busy', 'true')
      await expect(start).toBeDisabled()
      await expect(start).toHaveAttribute('aria-busy', 'true')
      await userEvent.click(start)
      await expect(drafts).toHaveLength(1)

      // Let go: the draft is made, the progress ends, and its editor opens.
      release()
      await waitFor(() => expect(progress()).toHaveAttribute('aria-busy', 'false'), { timeout: READY_TIMEOUT })
      await expect(progress().textContent).toBe('')
      const [iframe] = await frames(canvasElement)
      await expect(embedUrl(iframe!).path).toMatch(/^\/embed\/v2\/authoring\/envelope\/edit\/envelope_\w+$/)
      await expectReady(args)
      await expect(drafts).toHaveLength(1)
    } finally {
      release()
      window.fetch = real
    }
  },
}

/** Why a step failed, in a sentence for the person trying the demo. */
function refusal(e: unknown): string {
  if (e instanceof DemoError && e.code === 'MISSING_SIGNATURE_FIELD')
    return 'Not sent yet: every signer needs a signature field. The draft is kept below: add the fields and save, and it is sent.'
  if (e instanceof DemoError) return `Not sent yet (${e.code}): ${e.detail}. The draft is kept below: fix it and save.`
  return `The demo backend cannot be reached: ${e instanceof Error ? e.message : String(e)}.`
}

const SAMPLE_PDF = '/demo/sample.pdf'
const PREPARING_SAMPLE = 'Preparing the sample contract…'

/** The same loop from step 2, with a document the demo backend created and sent (a signer, then an approver). */
export const FromStep2: Story = {
  name: 'The whole loop, from step 2',
  loaders: [async ({ id }) => ({ sent: await sendDemoDocument('SEQUENTIAL', id) })],
  render: (args, { loaded }) => <Loop args={args} start={(loaded as { sent: SentEnvelope }).sent} />,
  play: async ({ args, canvasElement, loaded }) => {
    const { sent } = loaded as { sent: SentEnvelope }
    const canvas = within(canvasElement)
    const [signer, approver] = sent.recipients
    const [iframe] = await frames(canvasElement)
    await expectSignRoute(iframe!, signer!.token)
    await waitFor(() => expect(args.onSignReady).toHaveBeenCalledTimes(1), { timeout: READY_TIMEOUT })
    await expect(args.onError).not.toHaveBeenCalled()
    await expect(args.onDocumentError).not.toHaveBeenCalled()
    await expect(canvas.getByRole('button', { name: /Alex Signer signer/ })).toHaveAttribute('aria-pressed', 'true')
    await expectDelivered(canvasElement, sent.envelopeId, 'DOCUMENT_SENT')

    // The approver's view: their own token; not their turn yet, and still a ready page.
    await userEvent.click(canvas.getByRole('button', { name: /Blair Approver approver/ }))
    const [next] = await frames(canvasElement)
    await expectSignRoute(next!, approver!.token)
    await waitFor(() => expect(args.onSignReady).toHaveBeenCalledTimes(2), { timeout: READY_TIMEOUT })
    await expect(args.onError).not.toHaveBeenCalled()

    // Back to the signer, whose turn it is, for whoever watches the story.
    await userEvent.click(canvas.getByRole('button', { name: /Alex Signer signer/ }))
    await expectSignRoute((await frames(canvasElement))[0]!, signer!.token)
    await waitFor(() => expect(args.onSignReady).toHaveBeenCalledTimes(3), { timeout: READY_TIMEOUT })
  },
}

const styles = {
  steps: { display: 'flex', gap: 8, listStyle: 'none', margin: '0 0 12px', padding: 0, font: '13px/1.4 system-ui, sans-serif', flexWrap: 'wrap' },
  step: { padding: '4px 10px', borderRadius: 999, background: '#f1f1f1', color: '#555' },
  current: { background: '#1f2937', color: '#fff' },
  problem: { margin: '0 0 12px', color: '#b42318', font: '13px/1.4 system-ui, sans-serif' },
  recipients: { display: 'flex', gap: 8, flexWrap: 'wrap', margin: '0 0 8px' },
  recipient: { padding: '6px 12px', borderRadius: 6, borderWidth: 1, borderStyle: 'solid', borderColor: '#d0d0d0', background: '#fff', cursor: 'pointer', font: '13px system-ui, sans-serif' },
  chosen: { borderColor: '#1f2937', boxShadow: 'inset 0 0 0 1px #1f2937' },
  role: { color: '#666' },
  hint: { margin: '0 0 8px', color: '#555', font: '12px/1.4 system-ui, sans-serif' },
  link: { padding: 0, border: 0, background: 'none', color: '#1d4ed8', textDecoration: 'underline', cursor: 'pointer', font: 'inherit' },
  waiting: { color: '#555', cursor: 'progress' },
  status: { margin: '0 0 8px', color: '#555', font: '13px/1.4 system-ui, sans-serif' },
  result: { padding: 16, border: '1px solid #e2e2e2', borderRadius: 8, font: '14px/1.5 system-ui, sans-serif' },
} satisfies Record<string, CSSProperties>
