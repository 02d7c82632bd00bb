// `node scripts/search-passes.mjs --url <MCP endpoint> --token <bearer token> [--runs N]`: see scripts/bench/search-passes.ts.
import { runBundled } from './run-bundled.mjs';

await runBundled('bench/search-passes.ts');
