// `node scripts/profile-warm.mjs [notes | x7 | large] [--fresh]`: see scripts/profile-warm.ts.
import { runBundled } from './run-bundled.mjs';

await runBundled('profile-warm.ts');
