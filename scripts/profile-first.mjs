// `node scripts/profile-first.mjs [notes] [--cpu]`: see scripts/profile-first.ts.
import { runBundled } from './run-bundled.mjs';

await runBundled('profile-first.ts');
