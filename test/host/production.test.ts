/**
 * The host as its own package, as the container image runs it: host/production.sh builds it to
 * JavaScript and installs its runtime dependencies alone (npm ci --omit=dev) into a clean
 * directory; `node host/dist/cli.js serve` starts there on PostgreSQL, becomes ready, takes an
 * upload, seals a signed document in its worker threads, and stops on SIGTERM. The published
 * library's tarball holds nothing of the host.
 * Database: PostgreSQL (the container image runs on it).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { api, form, freshSchema, makePdf, pgReason, SIGNATURE } from './support.js'

const ROOT = path.resolve(import.meta.dirname, '../..')
const exec = promisify(execFile)

describe('the host as its own package', { timeout: 240_000 }, () => {
  const cleanup: (() => Promise<unknown>)[] = []
  afterAll(async () => {
    for (const f of cleanup.reverse()) await f().catch(() => {})
  })

  it('the library tarball holds the library only', async () => {
    const { stdout } = await exec('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT })
    const [{ name, files }] = JSON.parse(stdout) as [{ name: string; files: { path: string }[] }]
    const paths = files.map((f) => f.path)
    expect(name).toBe('envelope-embed')
    expect(paths).toContain('dist/index.js')
    expect(paths).toContain('dist/server/index.js')
    expect(paths.filter((p) => !/^(dist\/|package\.json$|README\.md$|LICENSE)/.test(p))).toEqual([])
  })

  it.skipIf(pgReason !== null)('builds, installs its runtime dependencies alone, and runs with node on PostgreSQL', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'host-production-'))
    cleanup.push(() => rm(dir, { recursive: true, force: true }))
    await exec('sh', [path.join(ROOT, 'host/production.sh'), dir], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 })

    // What runs, and nothing of the tools that build and test it.
    expect(existsSync(path.join(dir, 'node_modules/hono/package.json'))).toBe(true)
    expect(existsSync(path.join(dir, 'node_modules/@aws-sdk/client-s3/package.json'))).toBe(true)
    // The CJK fonts' regular weight, the one sealed PDFs draw, and none of the other eight.
    for (const font of ['noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf', 'noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf', 'noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf']) {
      expect(existsSync(path.join(dir, 'node_modules/@expo-google-fonts', font)), font).toBe(true)
    }
    expect(existsSync(path.join(dir, 'node_modules/@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf'))).toBe(false)
    for (const dev of ['vitest', 'storybook', 'react', 'typescript', 'tsx', 'vite', 'esbuild', 'playwright-core', 's3rver']) {
      expect(existsSync(path.join(dir, 'node_modules', dev)), dev).toBe(false)
    }

    const schema = freshSchema('host_production')
    cleanup.push(schema.drop)
    // A clean environment: no loader, no test settings from this process.
    const env = { PATH: process.env.PATH!, HOME: dir, DATABASE_URL: schema.url, PORT: '0', DATA_DIR: path.join(dir, 'data'), WEBHOOK_ALLOW_PRIVATE_URLS: '1' }
    const cli = (...args: string[]) => exec(process.execPath, ['host/dist/cli.js', ...args], { cwd: dir, env })

    const server: ChildProcess = spawn(process.execPath, ['host/dist/cli.js', 'serve'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    server.stderr!.on('data', (d) => (stderr += d))
    const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)))
    cleanup.push(async () => server.exitCode === null && server.kill('SIGKILL'))
    const lines: string[] = []
    const origin = await new Promise<string>((resolve, reject) => {
      createInterface({ input: server.stdout! }).on('line', (line) => {
        lines.push(line)
        const m = /^listening on (http:\/\/\S+)/.exec(line)
        if (m) resolve(m[1]!)
      })
      void exited.then((code) => reject(new Error(`the host exited (${code}): ${stderr}`)))
    })
    for (let ready = 0; ready !== 200; ) {
      ready = (await fetch(`${origin}/readyz`).catch(() => null))?.status ?? 0
      if (ready !== 200) await new Promise((r) => setTimeout(r, 100))
    }

    // An operator token from the CLI, then the whole loop through the API.
    const token = (await cli('token', 'create', '--name', 'production')).stdout.trim().split('\n').at(-1)!
    const client = api(`${origin}/api/v2`, `Bearer ${token}`)
    const created = await client.post(
      '/envelope/create',
      form(
        {
          type: 'DOCUMENT',
          title: 'Built and installed',
          recipients: [{ name: '山田 Ada', email: 'ada@example.com', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }] }],
        },
        [{ bytes: await makePdf(2, [{ text: 'Production', x: 50, y: 700 }]), name: 'prod.pdf' }],
      ),
    )
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    const sent = await client.post('/envelope/distribute', { envelopeId: created.body.id })
    expect(sent.status).toBe(200)
    const signer = api(`${origin}/api/signing`, `Bearer ${sent.body.recipients[0].token}`)
    await signer.post('/open', {})
    const session = (await signer.get('/session')).body
    expect((await signer.post('/complete', { fields: session.fields.map((f: any) => ({ id: f.id, value: SIGNATURE })) })).status).toBe(200)
    const itemId = (await client.get(`/envelope/${created.body.id}`)).body.envelopeItems[0].id
    // Sealing runs in the built worker threads; each download waits up to 5 s for it.
    let signed: Response
    let tries = 0
    do signed = await fetch(`${origin}/api/v2/envelope/item/${itemId}/download`, { headers: { Authorization: `Bearer ${token}` } })
    while (signed.status === 409 && ++tries < 12)
    expect(signed.status).toBe(200)
    expect(Buffer.from(await signed.arrayBuffer()).includes('/ETSI.CAdES.detached')).toBe(true)
    // The signer's name in Han characters is drawn in the certificate from the one CJK weight the image keeps.
    const certificate = await fetch(`${origin}/api/v2/envelope/${created.body.id}/certificate/download`, { headers: { Authorization: `Bearer ${token}` } })
    expect(certificate.status).toBe(200)
    const certificateFile = path.join(dir, 'certificate.pdf')
    await writeFile(certificateFile, Buffer.from(await certificate.arrayBuffer()))
    expect((await exec('pdffonts', [certificateFile])).stdout).toMatch(/NotoSans(JP|SC)-Regular/)
    // The pages are served from the built app.
    const page = await fetch(`${origin}/verify`)
    expect(page.status).toBe(200)
    expect(await page.text()).toMatch(/<script type="module"[^>]+src="\/embed\/assets\//)

    server.kill('SIGTERM')
    expect(await exited).toBe(0)
    // Its JSON log, gathered and written in the background: the seal's job, and the last request,
    // made just before SIGTERM and written as the process exited.
    const log = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(log).toContainEqual(expect.objectContaining({ msg: 'job', kind: 'seal', outcome: 'done' }))
    expect(log.filter((l) => l.msg === 'request').at(-1)).toMatchObject({ route: '/verify', status: 200 })
  })
})
