// `node scripts/profile-search.mjs [notes]`: see scripts/profile-search.ts.
import { runBundled } from './run-bundled.mjs';

await runBundled('profile-search.ts');
