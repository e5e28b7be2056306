// The slowest test files and tests of the last run, read from test-results/vitest.json (written by
// every `vitest run`): `node scripts/test-times.mjs [N]`. With `--record`, it also writes each
// file's duration to test/support/file-times.json, which orders a run that has no Vitest cache of
// its own (a clean clone: CI) longest file first (test/support/sequencer.ts). Where the run left
// test-results/file-cpu.jsonl (the Node projects, on Linux: test/support/file-cpu.ts), each file's
// CPU is shown beside its wall time, and the files that cost the most CPU are listed.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const args = process.argv.slice(2)
const n = Number(args.find((a) => /^\d+$/.test(a)) ?? 15)
const report = JSON.parse(readFileSync(new URL('../test-results/vitest.json', import.meta.url), 'utf8'))
// Paths relative to this repository, wherever the command is run from.
const root = fileURLToPath(new URL('..', import.meta.url))
const files = report.testResults.map((f) => ({ file: relative(root, f.name), ms: f.endTime - f.startTime, tests: f.assertionResults }))
const tests = files.flatMap((f) => f.tests.map((t) => ({ name: `${f.file} > ${t.fullName}`, ms: t.duration ?? 0 })))
const s = (ms) => `${(ms / 1000).toFixed(1).padStart(7)} s`
const total = files.reduce((sum, f) => sum + f.ms, 0)
const cpuFile = new URL('../test-results/file-cpu.jsonl', import.meta.url)
const cpu = new Map(existsSync(cpuFile) ? readFileSync(cpuFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)).map((r) => [r.file, r.cpuMs]) : [])
const cpuOf = (f) => (cpu.has(f.file) ? `${s(cpu.get(f.file))} CPU  ` : '')
console.log(`${files.length} files, ${tests.length} tests, ${s(total)} summed over files (${report.success ? 'passed' : 'failed'})`)
if (cpu.size) console.log(`${cpu.size} files' CPU counted (the Node projects): ${s([...cpu.values()].reduce((a, b) => a + b, 0))} in all`)
console.log('\nslowest files:')
for (const f of files.sort((a, b) => b.ms - a.ms).slice(0, n)) console.log(`${s(f.ms)}  ${cpuOf(f)}${f.file} (${f.tests.length})`)
if (cpu.size) {
  console.log('\nfiles that cost the most CPU (the worker and every process under it):')
  for (const f of files.filter((f) => cpu.has(f.file)).sort((a, b) => cpu.get(b.file) - cpu.get(a.file)).slice(0, n)) console.log(`${s(cpu.get(f.file))} CPU  ${s(f.ms)}  ${f.file} (${f.tests.length})`)
}
console.log('\nslowest tests:')
for (const t of tests.sort((a, b) => b.ms - a.ms).slice(0, n)) console.log(`${s(t.ms)}  ${t.name}`)

if (args.includes('--record')) {
  const out = new URL('../test/support/file-times.json', import.meta.url)
  const times = Object.fromEntries(files.map((f) => [f.file, Math.round(f.ms)]).sort(([a], [b]) => a.localeCompare(b)))
  writeFileSync(out, `${JSON.stringify(times, null, 1)}\n`)
  console.log(`\nrecorded ${files.length} files' times in test/support/file-times.json`)
}
