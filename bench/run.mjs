// Runs every benchmark one after another (never side by side: each measures ratios within its
// own run, and two at once would skew both). `npm run bench`, or `npm run bench -- host` for one.
import { spawnSync } from 'node:child_process'

const BENCHES = {
  'bundle-size': ['node', 'bench/bundle-size.mjs'],
  rerender: ['npx', 'tsx', 'bench/rerender.ts'],
  host: ['npx', 'tsx', 'bench/host.ts'],
  placeholders: ['npx', 'tsx', 'bench/placeholders.ts'],
  pages: ['npx', 'tsx', 'bench/pages.ts'],
  seal: ['npx', 'tsx', 'bench/seal.ts'],
  delivery: ['npx', 'tsx', 'bench/delivery.ts'],
  load: ['npx', 'tsx', 'bench/load.ts'],
  'bulk-send': ['npx', 'tsx', 'bench/bulk-send.ts'],
  tables: ['npx', 'tsx', 'bench/tables.ts'],
  isolation: ['npx', 'tsx', 'bench/isolation.ts'],
  'console-list': ['npx', 'tsx', 'bench/console-list.ts'],
}

const chosen = process.argv.slice(2)
const unknown = chosen.filter((name) => !(name in BENCHES))
if (unknown.length) {
  console.error(`unknown benchmark: ${unknown.join(', ')} (known: ${Object.keys(BENCHES).join(', ')})`)
  process.exit(2)
}

let failed = false
for (const name of chosen.length ? chosen : Object.keys(BENCHES)) {
  const [command, ...args] = BENCHES[name]
  console.log(`\n== ${name} ==`)
  const { status } = spawnSync(command, args, { stdio: 'inherit' })
  if (status !== 0) failed = true
}
process.exit(failed ? 1 : 0)
