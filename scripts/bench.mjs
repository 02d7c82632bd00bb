// `npm run bench`: runs scripts/bench.ts over the built main.js.
import { runBundled } from './run-bundled.mjs';

await runBundled('bench.ts');
