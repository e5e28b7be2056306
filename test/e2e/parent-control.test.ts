// The parent in control of the authoring page: the ref handle's commands and the page's moments,
// against the real host in Chromium, and against pages that answer nothing or predate commands.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from 'playwright-core'
import { afterAll, expect } from 'vitest'
import { callback, events, mount, shot, startStack, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'
import { pdfFile } from './support/pdf.js'
import { editor } from './support/ui.js'

let stack: Stack
/** Pages on another origin: `?token=old` sends the ready of a host without commands, `?token=mute` announces save and never answers. */
let other: Server
test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
  other = createServer((req, res) => {
    const mute = new URL(req.url!, 'http://x').searchParams.get('token') === 'mute'
    const ready = mute ? { type: 'embed-ready', commands: ['save'] } : { type: 'embed-ready' }
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><script>parent.postMessage(${JSON.stringify(ready)}, '*')</script>`)
  })
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
})
afterAll(async () => {
  other?.close()
  await stack?.close()
})

/** Runs `handle[command](...args)` in the parent: its result, or the EmbedCommandError's code, problems and class. */
const run = (page: Page, command: string, ...args: unknown[]): Promise<{ ok: boolean; result?: any; code?: string; problems?: any; error?: string | false }> =>
  page.evaluate(
    ([c, a]) =>
      (window.handle[c as string](...(a as unknown[])) as Promise<unknown>).then(
        (result) => ({ ok: true, result }),
        (e) => ({ ok: false, code: e.code, problems: e.problems, error: e instanceof Error && e.message }),
      ),
    [command, args] as const,
  )
const named = async (page: Page, name: string) => (await events(page)).filter((e) => e.name === name).map((e) => e.arg)

test('the handle: commands wait for ready, are answered or refused, or time out, or are unsupported; the moments reach the parent; edits survive a re-mount', async () => {
  const token = await stack.presign()
  // The host on the parent's site (localhost, another port), as sign.example.com in app.example.com:
  // Chromium gives a cross-site frame no storage at all, so only there can edits be kept.
  const sameSite = stack.host.url.replace('127.0.0.1', 'localhost')
  const { page, frame } = await mount(stack, 'EmbedCreateEnvelope', { host: sameSite, presignToken: token, type: 'DOCUMENT', externalId: 'order-9' })
  // Sent in the same task as the mount, long before the page is ready: it waits, then is answered.
  expect(await run(page, 'isDirty')).toEqual({ ok: true, result: false })
  expect(await named(page, 'onReady')).toHaveLength(1)
  expect(await named(page, 'onStepChange')).toEqual(['files'])

  // goToStep shows the step and reports it; a step the page does not have is refused.
  expect(await run(page, 'goToStep', 'settings')).toEqual({ ok: true })
  await frame.getByRole('heading', { name: 'Settings' }).waitFor()
  expect(await named(page, 'onStepChange')).toEqual(['files', 'settings'])
  expect(await run(page, 'goToStep', 'nowhere')).toMatchObject({ ok: false, code: 'REFUSED', error: expect.stringMatching(/\S/) })

  // save() of an envelope that is not valid yet: refused with the page's problems, which onSaveFailed hears too.
  const refused = await run(page, 'save')
  expect(refused).toMatchObject({ ok: false, code: 'REFUSED', error: expect.stringMatching(/\S/) })
  expect(refused.problems).toEqual([
    { step: 'files', code: 'noFiles', message: 'Add at least one PDF file.' },
    { step: 'settings', code: 'title', message: 'Give the envelope a title.' },
  ])
  expect(await named(page, 'onSaveFailed')).toEqual([refused.problems])
  // The page shows the first step with a problem.
  await expect.poll(() => named(page, 'onStepChange')).toEqual(['files', 'settings', 'files'])

  // An edit: dirty, to the parent and on asking.
  await editor(page, frame).addFiles([await pdfFile('Lease.pdf', 1)])
  await frame.getByTestId('file-row').waitFor()
  await callback(page, 'onDirtyChange')
  expect(await named(page, 'onDirtyChange')).toEqual([true])
  expect(await run(page, 'isDirty')).toEqual({ ok: true, result: true })

  // The frame reloads (the parent re-mounts it with the same token): the edits are offered back.
  const kept = () => page.frames()[1]!.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('envelope-draft:')).length)
  await expect.poll(kept).toBe(1)
  await remount(page, { host: sameSite, presignToken: token, type: 'DOCUMENT', externalId: 'order-9' })
  const offer = frame.getByRole('region', { name: /not saved/ })
  await offer.waitFor()
  await shot(page, 'parent-control-draft-offer')
  expect(await frame.getByTestId('file-row').count()).toBe(0)
  await offer.getByRole('button', { name: 'Restore' }).click()
  await frame.getByTestId('file-row').waitFor()
  expect(await frame.getByLabel('File name').inputValue()).toBe('Lease')
  expect(await run(page, 'isDirty')).toEqual({ ok: true, result: true })

  // save() of what was restored: the same as the done callback, and nothing is unsaved any more.
  const saved = await run(page, 'save')
  const created = await callback(page, 'onEnvelopeCreated')
  expect(saved).toEqual({ ok: true, result: created })
  expect(created).toEqual({ envelopeId: expect.stringMatching(/^envelope_/), externalId: 'order-9' })
  await expect.poll(() => named(page, 'onDirtyChange')).toEqual([true, false])
  const stored = await stack.api('GET', `/envelope/${created.envelopeId}`)
  expect(stored).toMatchObject({ externalId: 'order-9', envelopeItems: [expect.objectContaining({ title: 'Lease' })] })
  // Saved: nothing is kept, and a page shown anew offers nothing.
  await expect.poll(kept).toBe(0)
  await remount(page, { host: sameSite, presignToken: token, type: 'DOCUMENT' })
  await callback(page, 'onReady')
  expect(await frame.getByRole('region', { name: /not saved/ }).count()).toBe(0)

  // A host that predates commands (its ready announces none): UNSUPPORTED, at once.
  const host = `http://127.0.0.1:${(other.address() as AddressInfo).port}`
  await remount(page, { host, presignToken: 'old', type: 'DOCUMENT' })
  expect(await run(page, 'save')).toMatchObject({ ok: false, code: 'UNSUPPORTED', error: expect.stringMatching(/\S/) })
  // A page that takes the command and never answers: TIMEOUT after the timeout prop.
  await remount(page, { host, presignToken: 'mute', type: 'DOCUMENT', timeout: 1500 })
  expect(await run(page, 'save')).toMatchObject({ ok: false, code: 'TIMEOUT', error: expect.stringMatching(/\S/) })
  await page.close()
})

/** The parent renders the component anew (a new frame, as after a navigation in the parent). */
async function remount(page: Page, props: Record<string, unknown>) {
  await page.evaluate(() => window.unmount())
  await page.evaluate(([p]) => window.mount('EmbedCreateEnvelope', p as Record<string, unknown>), [{ host: stack.host.url, ...props }] as const)
}
