// `npm run bench`: runs scripts/bench/bench.ts over the built main.js; each scaling-table row runs in
// its own process (scripts/bench/scaling/scaling-row.ts, bundled beside it), and times its searches from
// a client process of its own (scripts/bench/scaling/search-client.ts, bundled beside it too).
// `--node22` runs the whole bench on Node 22 (scripts/node22.mjs: this Node when it is 22 or newer, else
// the npm package installed into build/node22/ once), whose V8 has Maglev as Electron's has; the
// rows and the client process are forked with the same binary, and the bench's first line names it.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { node22Binary } from './node22.mjs';
import { runBundled } from './run-bundled.mjs';

if (process.argv.includes('--node22')) {
  const args = process.argv.slice(2).filter((arg) => arg !== '--node22');
  const node = node22Binary('bench: --node22');
  if (node !== process.execPath) {
    const run = spawnSync(node, [fileURLToPath(import.meta.url), ...args], { stdio: 'inherit' });
    process.exit(run.status ?? 1);
  }
  process.argv = [...process.argv.slice(0, 2), ...args];
}
await runBundled('bench/bench.ts', ['bench/scaling/scaling-row.ts', 'bench/scaling/search-client.ts']);
