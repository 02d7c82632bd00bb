// `node scripts/profile-first-answer.mjs [main.js] [--json]`: see scripts/profile-first-answer.ts.
import { runBundled } from './run-bundled.mjs';

await runBundled('profile-first-answer.ts');
