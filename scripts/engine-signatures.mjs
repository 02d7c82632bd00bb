// `node scripts/engine-signatures.mjs [notes] [out-file] [--time runs] [--warm]`: see scripts/engine-signatures.ts.
import { runBundled } from './run-bundled.mjs';

await runBundled('engine-signatures.ts');
