// `npm run bench`: runs scripts/bench/bench.ts over the built main.js; each scaling-table row runs in
// its own process (scripts/bench/scaling/scaling-row.ts, bundled beside it), and times its searches from
// a client process of its own (scripts/bench/scaling/search-client.ts, bundled beside it too).
// `--node <major>` (e.g. `--node 24`) runs the whole bench on that Node release line
// (scripts/node-release.mjs: this Node when its major is that one, else the npm package installed into
// build/node<major>/ once), to measure on a V8 closer to Electron's, which runs the plugin in Obsidian;
// the rows and the client process are forked with the same binary, and the bench's first line names it.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { nodeBinary } from './node-release.mjs';
import { runBundled } from './run-bundled.mjs';

const nodeFlag = process.argv.indexOf('--node');
if (nodeFlag >= 0) {
  const major = process.argv[nodeFlag + 1];
  if (!/^\d{2}$/.test(major ?? '')) {
    console.error(
      `bench: --node takes a Node major release, e.g. --node 24 (got ${major === undefined ? 'nothing' : JSON.stringify(major)})`,
    );
    process.exit(2);
  }
  const args = process.argv.slice(2).filter((_, i) => i !== nodeFlag - 2 && i !== nodeFlag - 1);
  const node = nodeBinary(Number(major), `bench: --node ${major}`);
  if (node !== process.execPath) {
    const run = spawnSync(node, [fileURLToPath(import.meta.url), ...args], { stdio: 'inherit' });
    process.exit(run.status ?? 1);
  }
  process.argv = [...process.argv.slice(0, 2), ...args];
}
await runBundled('bench/bench.ts', ['bench/scaling/scaling-row.ts', 'bench/scaling/search-client.ts']);
