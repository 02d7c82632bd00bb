/**
 * The scaling table: generated vaults of growing size (1k, 10k, optionally 100k notes), each
 * loaded cold in the host with the plugin, reporting index build time, heap and search p50.
 */
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { performance } from 'node:perf_hooks';
import { bootPlugin, connectClient } from '../../test/harness/boot-plugin';
import { generateVault, generatedQueries } from './generate-vault';
import { heapMb, ms, percentiles, timeRuns, type Log } from './measure';
import { indexOf, type PluginClass } from './plugin-class';

/** One row of the table; times in ms, heap in MB. */
export interface ScalingRow {
  notes: number;
  textMb: number;
  generateMs: number;
  hostLoadMs: number;
  indexMs: number;
  heapBeforeMb: number;
  heapAfterMb: number;
  searchP50: number;
  searchP95: number;
}

/**
 * Generates (or reuses from the temp cache) a vault of each size in `sizes`, boots the plugin
 * on it with the index kept in memory (cold build every time), waits for the index, measures
 * heap after a full GC and `search` over HTTP (5 passes over generatedQueries()), and prints a
 * row as soon as it is measured.
 * @throws Error when a size is not a positive integer or the plugin does not start.
 */
export async function scalingTable(Plugin: PluginClass, sizes: number[], log: Log): Promise<ScalingRow[]> {
  const cache = nodePath.join(os.tmpdir(), 'vault-mcp-bench-generated');
  const queries = generatedQueries();
  log(`\nGenerated vaults (seeded; Zipf-like vocabulary, frontmatter, headings, wikilinks, tags), cold index in memory; search over ${queries.length} queries × 5:`);
  log('     notes   text MB   generate s   host load s   index s   heap before → after MB   search p50 / p95 ms');
  const rows: ScalingRow[] = [];
  for (const size of sizes) {
    const vault = await generateVault(cache, size);
    const heapBeforeMb = heapMb();
    const bootStart = performance.now();
    const booted = await bootPlugin(Plugin, { vaultPath: vault.path, waitForIndex: false });
    const listening = performance.now();
    const index = indexOf(booted.plugin);
    await index.whenBuilt();
    const indexMs = index.stats.buildMs ?? performance.now() - listening;
    const heapAfterMb = heapMb();
    const client = await connectClient(booted.url, booted.token);
    const samples: number[] = [];
    for (const query of queries) samples.push(...(await timeRuns(() => client.callTool({ name: 'search', arguments: { query } }), 5)));
    const p = percentiles(samples);
    await client.close();
    await booted.stop();
    const row: ScalingRow = {
      notes: vault.notes,
      textMb: vault.bytes / 1e6,
      generateMs: vault.ms,
      hostLoadMs: listening - bootStart,
      indexMs,
      heapBeforeMb,
      heapAfterMb,
      searchP50: p.p50,
      searchP95: p.p95,
    };
    rows.push(row);
    log(
      `  ${String(row.notes).padStart(8)} ${row.textMb.toFixed(1).padStart(9)} ${(vault.reused ? 'cached' : (row.generateMs / 1000).toFixed(1)).padStart(12)} ` +
        `${(row.hostLoadMs / 1000).toFixed(1).padStart(13)} ${(row.indexMs / 1000).toFixed(1).padStart(9)} ` +
        `${`${row.heapBeforeMb.toFixed(0)} → ${row.heapAfterMb.toFixed(0)}`.padStart(24)} ${`${ms(row.searchP50)} / ${ms(row.searchP95)}`.padStart(21)}`,
    );
  }
  return rows;
}
