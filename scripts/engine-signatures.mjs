// `node scripts/engine-signatures.mjs [notes] [out-file] [--time runs] [--warm]`: see scripts/profile/engine-signatures.ts.
import { runBundled } from './run-bundled.mjs';

await runBundled('profile/engine-signatures.ts');
