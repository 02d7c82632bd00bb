/**
 * The scaling table: generated vaults of growing size (1k, 10k, optionally 100k notes), each
 * loaded cold in the host with the plugin, reporting index build time, memory (the plugin's
 * apart from the host's own) and search p50/p95, for the bench's query mix and apart for
 * queries whose terms match most notes.
 */
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { performance } from 'node:perf_hooks';
import { bootPlugin, connectClient } from '../../test/harness/boot-plugin';
import { unloadPluginInHost } from '../../test/host/app';
import { generateVault, generatedQueries, heavyQueries } from './generate-vault';
import { heapMb, memoryMb, ms, percentiles, timeRuns, type Log } from './measure';
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
  /** ArrayBuffer bytes (typed arrays, outside the heap) after indexing, MB. */
  arraysAfterMb: number;
  /** Heap + ArrayBuffers after indexing minus the same once the plugin is unloaded (the host's own), MB. */
  pluginMb: number;
  /** Longest stretch the build ran without yielding, ms. */
  longestSliceMs: number;
  searchP50: number;
  searchP95: number;
  /** Over {@link heavyQueries} (terms matching most notes). */
  heavyP50: number;
  heavyP95: number;
}

/** What the bench reads of the lexical engine's typed arrays (LexicalEngine.footprint; bytes). */
interface EngineFootprint {
  postings: number;
  postingsUsed: number;
  docTerms: number;
  perDoc: number;
  terms: number;
}

/**
 * Generates (or reuses from the temp cache) a vault of each size in `sizes`, boots the plugin
 * on it with the index kept in memory (cold build every time), waits for the index, measures
 * heap and ArrayBuffers after a full GC, `search` over HTTP (5 passes over generatedQueries(),
 * then over heavyQueries()), then the memory once the plugin is unloaded (the host's own,
 * subtracted to give the plugin's), and prints a row as soon as it is measured.
 * @throws Error when a size is not a positive integer or the plugin does not start.
 */
export async function scalingTable(Plugin: PluginClass, sizes: number[], log: Log): Promise<ScalingRow[]> {
  const cache = nodePath.join(os.tmpdir(), 'vault-mcp-bench-generated');
  const queries = generatedQueries();
  const heavy = heavyQueries();
  log(
    `\nGenerated vaults (seeded; Zipf-like vocabulary, frontmatter, headings, wikilinks, tags), cold index in memory; search over ${queries.length} queries × 5, ` +
      `"heavy": ${heavy.length} queries of the most frequent words × 5; arrays: ArrayBuffers (typed arrays, outside the heap); plugin: heap + arrays above the host's own:`,
  );
  log('     notes   text MB   generate s   host load s   index s   slice ms   heap before → after MB   arrays MB   plugin MB   search p50 / p95 ms   heavy p50 / p95 ms');
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
    const after = memoryMb();
    const footprint = (index as unknown as { engine: { footprint(): EngineFootprint } }).engine.footprint();
    const client = await connectClient(booted.url, booted.token);
    const pass = async (list: string[]): Promise<ReturnType<typeof percentiles>> => {
      const samples: number[] = [];
      for (const query of list) samples.push(...(await timeRuns(() => client.callTool({ name: 'search', arguments: { query } }), 5)));
      return percentiles(samples);
    };
    const p = await pass(queries);
    const h = await pass(heavy);
    await client.close();
    unloadPluginInHost(booted.plugin);
    const host = memoryMb();
    await booted.stop();
    const row: ScalingRow = {
      notes: vault.notes,
      textMb: vault.bytes / 1e6,
      generateMs: vault.ms,
      hostLoadMs: listening - bootStart,
      indexMs,
      heapBeforeMb,
      heapAfterMb: after.heap,
      arraysAfterMb: after.arrays,
      pluginMb: after.heap + after.arrays - host.heap - host.arrays,
      longestSliceMs: index.stats.longestSliceMs,
      searchP50: p.p50,
      searchP95: p.p95,
      heavyP50: h.p50,
      heavyP95: h.p95,
    };
    rows.push(row);
    log(
      `  ${String(row.notes).padStart(8)} ${row.textMb.toFixed(1).padStart(9)} ${(vault.reused ? 'cached' : (row.generateMs / 1000).toFixed(1)).padStart(12)} ` +
        `${(row.hostLoadMs / 1000).toFixed(1).padStart(13)} ${(row.indexMs / 1000).toFixed(1).padStart(9)} ${ms(row.longestSliceMs).padStart(10)} ` +
        `${`${row.heapBeforeMb.toFixed(0)} → ${row.heapAfterMb.toFixed(0)}`.padStart(24)} ${row.arraysAfterMb.toFixed(0).padStart(11)} ${row.pluginMb.toFixed(0).padStart(11)} ` +
        `${`${ms(row.searchP50)} / ${ms(row.searchP95)}`.padStart(21)} ${`${ms(row.heavyP50)} / ${ms(row.heavyP95)}`.padStart(20)}`,
    );
    const mb = (bytes: number): string => (bytes / 1e6).toFixed(0);
    log(
      `            index arrays: postings ${mb(footprint.postings)} MB (${mb(footprint.postingsUsed)} MB used), per-note term lists ${mb(footprint.docTerms)} MB, ` +
        `per-note lengths and scratch ${mb(footprint.perDoc)} MB; ${footprint.terms} terms`,
    );
  }
  return rows;
}
