// `node scripts/search-results-dump.mjs <notes | large> <out-file>`: see scripts/search-results-dump.ts.
import { runBundled } from './run-bundled.mjs';

await runBundled('search-results-dump.ts');
