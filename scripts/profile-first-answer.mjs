// `node scripts/profile-first-answer.mjs [main.js] [--json]`: see scripts/profile/profile-first-answer.ts.
import { runBundled } from './run-bundled.mjs';

await runBundled('profile/profile-first-answer.ts');
