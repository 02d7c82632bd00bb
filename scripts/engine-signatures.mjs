// `node scripts/engine-signatures.mjs [notes] [out-file] [--time runs]`: see scripts/engine-signatures.ts.
import { runBundled } from './run-bundled.mjs';

await runBundled('engine-signatures.ts');
