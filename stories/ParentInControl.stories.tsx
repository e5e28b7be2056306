import { useEffect, useRef, useState, type CSSProperties } from 'react'
import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { EmbedCreateEnvelope, type EditorStep, type EmbedProblem, type EnvelopeEditorHandle } from '../src/index.js'
import { callbacks } from './support/args.js'
import { hostUrl, tokenLoader, type Loaded } from './support/demo.js'
import { expectReady, frames, READY_TIMEOUT } from './support/play.js'

const spies = () => callbacks('onReady', 'onError', 'onStepChange', 'onDirtyChange', 'onSaveFailed', 'onEnvelopeCreated')
type Args = ReturnType<typeof spies> & { host: string }

const meta = {
  title: 'Recipes/Parent in control',
  tags: ['!autodocs'],
  args: { host: hostUrl, ...spies() },
} satisfies Meta<Args>

export default meta
type Story = StoryObj<Args>

const STEPS: EditorStep[] = ['files', 'recipients', 'fields', 'settings']

/** A refusal in one line: the page's problems when it gave them, else the code. */
function describe(e: unknown): string {
  const { code, message, problems } = e as { code?: string; message?: string; problems?: EmbedProblem[] }
  return `${code ?? 'ERROR'}: ${problems?.length ? problems.map((p) => p.message).join('; ') : message}`
}

/**
 * Your app owns the chrome: its own toolbar moves the editor between steps and saves through the
 * component's `ref`, shows whether there are unsaved edits (`onDirtyChange`), and has the browser
 * ask before the page is left with them. With a router, `useBlocker(dirty)` does the same for
 * in-app navigation (see docs/components.md, "The parent in control").
 */
function ParentToolbar({ args, token }: { args: Args; token: string }) {
  const editor = useRef<EnvelopeEditorHandle>(null)
  const [step, setStep] = useState<EditorStep | null>(null)
  const [dirty, setDirty] = useState(false)
  const [status, setStatus] = useState('')
  useEffect(() => {
    if (!dirty) return
    const ask = (e: BeforeUnloadEvent) => e.preventDefault()
    addEventListener('beforeunload', ask)
    return () => removeEventListener('beforeunload', ask)
  }, [dirty])
  const run = (command: () => Promise<unknown>, done: string) =>
    command().then(
      () => setStatus(done),
      (e: unknown) => setStatus(describe(e)),
    )
  return (
    <div>
      <div role="toolbar" aria-label="Your app's toolbar" style={styles.toolbar}>
        {STEPS.map((s) => (
          <button key={s} type="button" style={{ ...styles.button, ...(s === step ? styles.current : {}) }} aria-pressed={s === step} onClick={() => void run(() => editor.current!.goToStep(s), `Moved to ${s}`)}>
            {s}
          </button>
        ))}
        <span style={styles.dirty} data-testid="dirty">{dirty ? 'Unsaved edits' : 'Nothing unsaved'}</span>
        <button type="button" style={{ ...styles.button, ...styles.current }} onClick={() => void run(() => editor.current!.save(), 'Saved')}>
          Save from your app
        </button>
      </div>
      <p role="status" style={styles.status}>{status}</p>
      <EmbedCreateEnvelope
        ref={editor}
        host={args.host}
        presignToken={token}
        type="DOCUMENT"
        style={{ width: '100%', height: 720 }}
        onReady={args.onReady}
        onError={args.onError}
        onEnvelopeCreated={args.onEnvelopeCreated}
        onStepChange={(s) => (setStep(s), args.onStepChange(s))}
        onDirtyChange={(d) => (setDirty(d), args.onDirtyChange(d))}
        onSaveFailed={args.onSaveFailed}
      />
    </div>
  )
}

export const ParentInControl: Story = {
  name: 'Parent in control',
  loaders: [tokenLoader],
  render: (args, { loaded }) => <ParentToolbar args={args} token={(loaded as Loaded).token} />,
  // The toolbar drives the real editor on the demo host: a step, then a save it refuses.
  play: async ({ args, canvasElement }) => {
    const canvas = within(canvasElement)
    await frames(canvasElement)
    await expectReady(args)
    await waitFor(() => expect(args.onStepChange).toHaveBeenCalledWith('files'), { timeout: READY_TIMEOUT })
    await userEvent.click(canvas.getByRole('button', { name: 'settings' }))
    await waitFor(() => expect(args.onStepChange).toHaveBeenLastCalledWith('settings'))
    await expect(canvas.getByRole('button', { name: 'settings' })).toHaveAttribute('aria-pressed', 'true')
    await userEvent.click(canvas.getByRole('button', { name: 'Save from your app' }))
    await waitFor(() => expect(canvas.getByRole('status')).toHaveTextContent(/^REFUSED: /))
    await expect(args.onSaveFailed).toHaveBeenCalled()
    await expect(args.onEnvelopeCreated).not.toHaveBeenCalled()
    await expect(canvas.getByTestId('dirty')).toHaveTextContent('Nothing unsaved')
    await expect(args.onError).not.toHaveBeenCalled()
  },
}

const styles = {
  toolbar: { display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap', margin: '0 0 8px', font: '13px system-ui, sans-serif' },
  button: { padding: '6px 12px', borderRadius: 6, border: '1px solid #d0d0d0', background: '#fff', cursor: 'pointer', font: 'inherit', textTransform: 'capitalize' },
  current: { background: '#1f2937', borderColor: '#1f2937', color: '#fff' },
  dirty: { marginLeft: 'auto', color: '#555' },
  status: { minHeight: '1.4em', margin: '0 0 8px', color: '#555', font: '13px/1.4 system-ui, sans-serif' },
} satisfies Record<string, CSSProperties>
