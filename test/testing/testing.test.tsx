// The helpers customers use in their unit tests, used the way docs/testing-your-app.md shows: render our
// components with Testing Library in happy-dom and play the service's side of the wire.
import { cleanup, render, screen } from '@testing-library/react'
import { createRef, useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  EmbedCommandError, EmbedCreateEnvelope, EmbedCreateDocumentV1, EmbedDirectTemplate, EmbedMultiSignDocument, EmbedSignDocument, EmbedUpdateEnvelope,
  type EnvelopeEditorHandle, type SigningHandle,
} from '../../src/index.js'
import { embedFrame } from '../../src/testing/index.js'

const HOST = 'https://sign.example.com'
afterEach(cleanup)

/** A customer's component: the editor, then a confirmation once the document exists. */
function NewContract({ onSaved }: { onSaved: (id: string) => void }) {
  const [created, setCreated] = useState<string>()
  const [problem, setProblem] = useState<string>()
  if (created) return <p>Contract {created} saved</p>
  return (
    <>
      {problem && <p role="alert">{problem}</p>}
      <EmbedCreateEnvelope
        host={HOST}
        presignToken="presign-1"
        type="DOCUMENT"
        externalId="order-7"
        onEnvelopeCreated={({ envelopeId }) => {
          setCreated(envelopeId)
          onSaved(envelopeId)
        }}
        onError={(e) => setProblem(`${e.code}: ${e.message}`)}
      />
    </>
  )
}

describe('envelope-embed/testing', () => {
  it('a customer component: the frame says created, the app moves on', async () => {
    const saved = vi.fn()
    const { container } = render(<NewContract onSaved={saved} />)
    const frame = embedFrame(container)
    expect(frame.path).toBe('/embed/v2/authoring/envelope/create')
    expect(frame.token).toBe('presign-1')
    expect(frame.options).toMatchObject({ type: 'DOCUMENT', externalId: 'order-7', parentOrigin: location.origin })
    frame.ready()
    frame.envelopeCreated('envelope_abc')
    expect(saved).toHaveBeenCalledWith('envelope_abc')
    expect(await screen.findByText('Contract envelope_abc saved')).toBeTruthy()
  })

  it('errors reach onError; messages from anywhere else are ignored, as in a browser', async () => {
    const saved = vi.fn()
    render(<NewContract onSaved={saved} />)
    const frame = embedFrame()
    // Another window, or the right window from another origin: nothing happens.
    window.dispatchEvent(new MessageEvent('message', { data: { type: 'envelope-created', envelopeId: 'x', externalId: null }, origin: frame.origin, source: window }))
    window.dispatchEvent(new MessageEvent('message', { data: { type: 'envelope-created', envelopeId: 'x', externalId: null }, origin: 'https://evil.example', source: frame.element.contentWindow }))
    expect(saved).not.toHaveBeenCalled()
    frame.error('TOKEN_EXPIRED', 'the presign token expired')
    expect((await screen.findByRole('alert')).textContent).toBe('TOKEN_EXPIRED: the presign token expired')
  })

  it('onReady, autoHeight and the updated callback', () => {
    const onReady = vi.fn()
    const updated = vi.fn()
    render(<EmbedUpdateEnvelope host={HOST} presignToken="p" envelopeId="envelope_1" autoHeight onReady={onReady} onEnvelopeUpdated={updated} />)
    const frame = embedFrame()
    expect(frame.path).toBe('/embed/v2/authoring/envelope/edit/envelope_1')
    frame.ready()
    expect(onReady).toHaveBeenCalledTimes(1)
    frame.resize(1234)
    expect(frame.element.style.height).toBe('1234px')
    frame.envelopeUpdated('envelope_1')
    expect(updated).toHaveBeenCalledWith({ envelopeId: 'envelope_1' })
  })

  it('the deprecated components: their legacy ids', () => {
    const created = vi.fn()
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    render(<EmbedCreateDocumentV1 host={HOST} presignToken="p" externalId="e" onDocumentCreated={created} />)
    embedFrame().legacy('document-created', 42)
    expect(created).toHaveBeenCalledWith({ documentId: 42, externalId: 'e' })
  })

  it('signing: ready, fields, completed and rejected', () => {
    const cb = { onDocumentReady: vi.fn(), onFieldSigned: vi.fn(), onDocumentCompleted: vi.fn(), onDocumentRejected: vi.fn() }
    render(<EmbedSignDocument host={HOST} token="recipient-token" name="Ann" {...cb} />)
    const frame = embedFrame()
    expect(frame.path).toBe('/embed/sign/recipient-token')
    expect(frame.token).toBe('recipient-token')
    expect(frame.options).toMatchObject({ name: 'Ann' })
    frame.ready()
    expect(cb.onDocumentReady).toHaveBeenCalledTimes(1)
    frame.fieldSigned()
    expect(cb.onFieldSigned).toHaveBeenCalledTimes(1)
    frame.completed({ documentId: 7, recipientId: 3 })
    expect(cb.onDocumentCompleted).toHaveBeenCalledWith({ token: 'recipient-token', documentId: 7, recipientId: 3 })
    frame.rejected('wrong amount')
    expect(cb.onDocumentRejected).toHaveBeenCalledWith({ token: 'recipient-token', documentId: 1, recipientId: 1, reason: 'wrong amount' })
  })

  it('the handle: commands wait for ready, are answered or refused; the page\'s moments reach their callbacks', async () => {
    const ref = createRef<EnvelopeEditorHandle>()
    const cb = { onStepChange: vi.fn(), onDirtyChange: vi.fn(), onSaveFailed: vi.fn(), onEnvelopeCreated: vi.fn() }
    render(<EmbedCreateEnvelope ref={ref} host={HOST} presignToken="p" type="DOCUMENT" {...cb} />)
    const frame = embedFrame()
    const dirty = ref.current!.isDirty()
    expect(frame.commands).toEqual([])
    frame.ready()
    expect(frame.commands).toEqual([{ id: expect.any(Number), command: 'isDirty', args: [] }])
    frame.answer('isDirty', true)
    await expect(dirty).resolves.toBe(true)

    const step = ref.current!.goToStep('fields')
    expect(frame.commands.map((c) => c.args)).toEqual([['fields']])
    frame.answer('goToStep')
    await expect(step).resolves.toBeUndefined()

    const problems = [{ step: 'files' as const, code: 'noFiles', message: 'Add a document' }]
    const refused = ref.current!.save().catch((e: unknown) => e)
    frame.refuse('save', problems)
    const error = (await refused) as EmbedCommandError
    expect(error).toBeInstanceOf(EmbedCommandError)
    expect(error).toMatchObject({ code: 'REFUSED', problems })
    expect(() => frame.answer('save')).toThrow(/no save command to answer/)

    frame.event('step-change', 'recipients')
    frame.event('dirty-change', true)
    frame.event('save-failed', problems)
    expect(cb.onStepChange).toHaveBeenCalledWith('recipients')
    expect(cb.onDirtyChange).toHaveBeenCalledWith(true)
    expect(cb.onSaveFailed).toHaveBeenCalledWith(problems)
  })

  it('a host that announces no commands: UNSUPPORTED, without asking it', async () => {
    const ref = createRef<EnvelopeEditorHandle>()
    render(<EmbedCreateEnvelope ref={ref} host={HOST} presignToken="p" type="DOCUMENT" />)
    const frame = embedFrame()
    frame.ready([])
    await expect(ref.current!.save()).rejects.toMatchObject({ code: 'UNSUPPORTED' })
    expect(frame.commands).toEqual([])
  })

  it('signing: the handle\'s commands answered and refused (UNSUPPORTED by an old host), the moments of waiting, expiry and multi-sign', async () => {
    const ref = createRef<SigningHandle>()
    const cb = { onWaitingForTurn: vi.fn(), onLinkExpired: vi.fn() }
    render(<EmbedSignDocument ref={ref} host={HOST} token="recipient-token" {...cb} />)
    const frame = embedFrame()
    const next = ref.current!.nextField()
    frame.ready()
    expect(frame.commands.map((c) => c.command)).toEqual(['nextField'])
    frame.answer('nextField', { id: 4, type: 'SIGNATURE', label: 'Signature', page: 1 })
    await expect(next).resolves.toEqual({ id: 4, type: 'SIGNATURE', label: 'Signature', page: 1 })
    const zoom = ref.current!.setZoom(500)
    expect(frame.commands).toEqual([{ id: expect.any(Number), command: 'setZoom', args: [500] }])
    frame.refuse('setZoom', undefined, 'REFUSED', 'the zoom is from 100 to 300 percent')
    await expect(zoom).rejects.toMatchObject({ code: 'REFUSED', message: 'the zoom is from 100 to 300 percent' })
    const download = ref.current!.download()
    frame.answer('download', ['Lease.pdf'])
    await expect(download).resolves.toEqual(['Lease.pdf'])
    frame.waitingForTurn()
    frame.linkExpired()
    expect(cb.onWaitingForTurn.mock.calls).toEqual([[]])
    expect(cb.onLinkExpired.mock.calls).toEqual([[]])
    cleanup()

    // A direct link has the same handle; a host that predates the commands answers none of them.
    const direct = createRef<SigningHandle>()
    render(<EmbedDirectTemplate ref={direct} host={HOST} token="link-token" />)
    const old = embedFrame()
    old.ready([])
    await expect(direct.current!.setZoom(150)).rejects.toMatchObject({ code: 'UNSUPPORTED' })
    expect(old.commands).toEqual([])
    cleanup()

    const onSignerCompleted = vi.fn()
    render(<EmbedMultiSignDocument host={HOST} tokens={['a', 'b']} onSignerCompleted={onSignerCompleted} />)
    const multi = embedFrame()
    expect(multi.path).toBe('/embed/v1/multisign')
    multi.ready()
    multi.signerCompleted({ done: 1, total: 2 })
    expect(onSignerCompleted).toHaveBeenCalledWith({ token: 'a', documentId: 1, recipientId: 1, action: 'document-completed', done: 1, total: 2 })
  })

  it('says what is wrong when there is no frame', () => {
    expect(() => embedFrame()).toThrow(/no iframe rendered/)
  })
})
