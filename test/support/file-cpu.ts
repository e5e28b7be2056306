/**
 * Set up in the Node projects: the CPU each test file costs the machine, from its start (the
 * collection of its modules included) to the end of its last hook. Counted on Linux from `/proc`
 * for the worker's process and everything under it (the hosts in it, its Chromium and that
 * browser's renderers, hosts and CLI commands started as processes; children that ended count
 * through their parent's `cutime`). One JSON line a file in test-results/file-cpu.jsonl, which
 * `npm run test:times` reads beside the wall times. A file's CPU is what it spent, whatever ran
 * beside it, so it compares across runs of one machine where wall times shift with the neighbours.
 */
import { appendFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll } from 'vitest'

const OUT = path.resolve(import.meta.dirname, '../../test-results/file-cpu.jsonl')
const TICK_MS = 10 // USER_HZ is 100 on Linux

/** utime + stime + cutime + cstime of a process, in ticks, and its parent; null once it is gone. */
function stat(pid: string): { ppid: string; ticks: number } | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ')
    return { ppid: f[1]!, ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) }
  } catch {
    return null
  }
}

/** Ticks of this process and every process under it, alive now. */
function treeTicks(): number {
  const all = new Map<string, { ppid: string; ticks: number }>()
  for (const pid of readdirSync('/proc')) if (/^\d+$/.test(pid)) { const s = stat(pid); if (s) all.set(pid, s) }
  const children = new Map<string, string[]>()
  for (const [pid, s] of all) children.set(s.ppid, [...(children.get(s.ppid) ?? []), pid])
  let ticks = 0
  const walk = (pid: string) => {
    ticks += all.get(pid)?.ticks ?? 0
    for (const c of children.get(pid) ?? []) walk(c)
  }
  walk(String(process.pid))
  return ticks
}

const linux = process.platform === 'linux'
const startTicks = linux ? treeTicks() : 0
const startWall = performance.now()
let file = ''

beforeAll(({}, suite) => {
  file = path.relative(path.resolve(import.meta.dirname, '../..'), suite.file.filepath)
})

afterAll(() => {
  if (!linux || !file) return
  // A process started during the file and ended before its end without being reaped counts nothing:
  // Node and Chromium reap their children, so none is missed in practice.
  const cpuMs = (treeTicks() - startTicks) * TICK_MS
  mkdirSync(path.dirname(OUT), { recursive: true })
  appendFileSync(OUT, `${JSON.stringify({ file, cpuMs, wallMs: Math.round(performance.now() - startWall), pid: process.pid })}\n`)
})
