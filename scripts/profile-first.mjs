// `node scripts/profile-first.mjs [notes] [--cpu] [--client-process]`: see scripts/profile/profile-first.ts.
import { runBundled } from './run-bundled.mjs';

await runBundled('profile/profile-first.ts', ['bench/scaling/search-client.ts']);
