// npm run test:under-load [-- RUNS]: the whole suite (`npm test`) with two CPU-bound processes
// beside it, RUNS times in a row (default 1). It checks that no test depends on a quiet machine:
// a fixed sleep, a tight time limit or an ordering only a free core gives. Prints each run's wall
// time and outcome; exits non-zero when any run failed.
import { spawn } from 'node:child_process'

const runs = Math.max(1, Number(process.argv[2] ?? 1) || 1)
const BUSY = 'for (;;) Math.sqrt(Math.random())'
const burners = [0, 1].map(() => spawn(process.execPath, ['-e', BUSY], { stdio: 'ignore' }))
const stop = () => burners.forEach((b) => b.kill('SIGKILL'))
process.on('exit', stop)
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130))

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const results = []
for (let run = 1; run <= runs; run++) {
  const started = Date.now()
  const code = await new Promise((resolve) => spawn(npm, ['test'], { stdio: 'inherit' }).on('close', resolve))
  const minutes = ((Date.now() - started) / 60_000).toFixed(1)
  results.push(`run ${run} of ${runs}: ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${minutes} min, two CPU-bound processes beside it`)
  console.log(`\n${results.at(-1)}\n`)
}
stop()
console.log(results.join('\n'))
process.exit(results.every((r) => r.includes('passed')) ? 0 : 1)
