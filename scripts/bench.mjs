// `npm run bench`: runs scripts/bench.ts over the built main.js; each scaling-table row runs in
// its own process (scripts/bench/scaling-row.ts, bundled beside it).
import { runBundled } from './run-bundled.mjs';

await runBundled('bench.ts', ['bench/scaling-row.ts']);
