// `node scripts/profile-search.mjs [notes]`: see scripts/profile/profile-search.ts.
import { runBundled } from './run-bundled.mjs';

await runBundled('profile/profile-search.ts');
