// `node scripts/profile-warm.mjs [notes | x7 | large] [--fresh]`: see scripts/profile/profile-warm.ts.
import { runBundled } from './run-bundled.mjs';

await runBundled('profile/profile-warm.ts');
