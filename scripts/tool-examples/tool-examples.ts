/**
 * `npm run docs:tools`: regenerates docs/tools.md, one example call and its real result per
 * tool in tools/list (see scripts/tool-examples/). Bundled and run by scripts/tool-examples.mjs;
 * `import 'obsidian'` resolves to the host (test/host). test/integration/tools/tool-docs.test.ts
 * checks the committed file matches.
 */
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import VaultMcpPlugin from '../../src/main';
import type { PluginClass } from '../bench/plugin-class';
import { runToolExamples } from './generate';
import { renderToolDocs } from './render';

/** docs/tools.md, from build/ where this file runs once bundled. */
const OUT = nodePath.resolve(__dirname, '../docs/tools.md');

async function main(): Promise<void> {
  const run = await runToolExamples(VaultMcpPlugin as unknown as PluginClass);
  await fsp.writeFile(OUT, renderToolDocs(run.examples, run.vaultDir));
  console.log(`Wrote docs/tools.md: ${run.examples.length} tools.`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`docs:tools: ${(error as Error).message}`);
    process.exit(1);
  },
);
