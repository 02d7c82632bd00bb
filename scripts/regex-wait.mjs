// `node scripts/regex-wait.mjs [sessions]`: see scripts/regex-wait.ts.
import { runBundled } from './run-bundled.mjs';

await runBundled('regex-wait.ts');
