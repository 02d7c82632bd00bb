// `node scripts/regex-wait.mjs [sessions]`: see scripts/profile/regex-wait.ts.
import { runBundled } from './run-bundled.mjs';

await runBundled('profile/regex-wait.ts');
