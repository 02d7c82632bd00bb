// `node scripts/search-results-dump.mjs <notes | large> <out-file>`: see scripts/profile/search-results-dump.ts.
import { runBundled } from './run-bundled.mjs';

await runBundled('profile/search-results-dump.ts');
