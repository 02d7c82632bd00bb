// `node scripts/profile-page.mjs [notes | large]`: see scripts/profile/profile-page.ts.
import { runBundled } from './run-bundled.mjs';

await runBundled('profile/profile-page.ts');
