// `npm run docs:tools`: runs scripts/tool-examples/tool-examples.ts (bundled with the Obsidian host) to rewrite docs/tools.md.
import { runBundled } from './run-bundled.mjs';

await runBundled('tool-examples/tool-examples.ts');
