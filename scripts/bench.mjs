// `npm run bench`: runs scripts/bench/bench.ts over the built main.js; each scaling-table row runs in
// its own process (scripts/bench/scaling/scaling-row.ts, bundled beside it), and times its searches from
// a client process of its own (scripts/bench/scaling/search-client.ts, bundled beside it too).
import { runBundled } from './run-bundled.mjs';

await runBundled('bench/bench.ts', ['bench/scaling/scaling-row.ts', 'bench/scaling/search-client.ts']);
