/**
 * One row of the scaling table, measured in this process: a cold boot of the plugin on a
 * vault, the index's figures, `search` over HTTP (timed from a client in a process of its own,
 * remote-client.ts) and the memory above the host's own; or, in a fresh process after it, a warm
 * boot from the saved index. scaling-row.ts runs each in a child process.
 */
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import * as v8 from 'node:v8';
import { bootPlugin, type BootOptions } from '../../../test/harness/boot-plugin';
import { unloadPluginInHost } from '../../../test/host/app';
import { parseQuery } from '../../../src/search/query/parser/query-parser';
import { RegexGuard } from '../../../src/search/query/regex-guard';
import { memoryMb, ms, percentiles, settledMemoryMb, timeRuns } from '../measure';
import { RemoteSearchClient } from './remote-client';
import { indexOf, type PluginClass } from '../plugin-class';

/** Which of issue 20's target sets a row is held to (scaling-targets.ts): the 100k targets, the 14k figures at filing, or none. */
export type TargetSet = 'at-100k' | 'at-filing' | null;

/** A vault of the table: where it is, the queries it is searched with, the config folder its run may use. */
export interface TableVault {
  label: string;
  path: string;
  notes: number;
  bytes: number;
  queries: string[];
  /** Queries whose terms match most notes, timed apart. */
  heavy: string[];
  /** The vault's config folder for this run (`vault.configDir`, relative): the saved index goes under it; removed before and after. */
  configDir: string;
  targets: TargetSet;
}

/** One row of the table; times in ms, memory in MB (10^6 bytes). */
export interface ScalingRow {
  label: string;
  notes: number;
  textMb: number;
  indexMs: number;
  /** Longest stretch the build ran without yielding (wall time, awaits on file reads included), ms. */
  longestSliceMs: number;
  /** Longest event-loop delay while the cold build ran (what a UI would feel), ms. */
  loopDelayMs: number;
  /** Warm start: the saved index loaded, changed notes reindexed; build ms and longest slice (with the work after completeness: block bounds, phrase filters). */
  warmMs: number;
  warmSliceMs: number;
  /** The warm start's longest slice until complete alone, ms (shown under the row). */
  warmBuildSliceMs: number;
  heapAfterMb: number;
  arraysAfterMb: number;
  /** Heap + ArrayBuffers after indexing minus the same once the plugin is unloaded (the host's own), MB. */
  pluginMb: number;
  searchP50: number;
  searchP95: number;
  /** Over the heavy queries (terms matching most notes). */
  heavyP50: number;
  heavyP95: number;
  /** The measuring process's peak resident set (host, plugin and bench together), MB. */
  peakRssMb: number;
  targets: TargetSet;
}

/** A measured row and the lines printed under it (index arrays, process memory, per-query times at 100k). */
export interface MeasuredRow {
  row: ScalingRow;
  details: string[];
}

/** What the bench reads of the lexical engine (LexicalEngine.footprint in bytes, and match for the profile). */
interface EngineView {
  footprint(): { postings: number; postingsUsed: number; docTerms: number; perDoc: number; phraseFilters?: number; terms: number };
  match(
    query: unknown,
    load: (path: string) => Promise<string>,
    access: { key: string; allow(path: string): boolean },
    guard: unknown,
    ranked: number,
  ): Promise<{ total: number }>;
}

/**
 * The warm boot's figures (ScalingRow's warmMs and warmSliceMs; NaN when the boot did not load a saved index), with
 * what tells the process's own work from the machine's: the process's CPU time (all threads, ms) and the wall time
 * (ms) from the server listening to the phrase filters in, and the file data the kernel had yet to write to disk
 * when the boot began (MB; the cold save's 100+ MB are written about 30 s after it, Linux's dirty_expire; NaN where
 * /proc/meminfo is absent).
 */
export type WarmFigures = Pick<ScalingRow, 'warmMs' | 'warmSliceMs' | 'warmBuildSliceMs'> & {
  warmCpuMs: number;
  warmWallMs: number;
  unwrittenMbAtStart: number;
};

/**
 * Boots `Plugin` cold on `vault` with the index saved under its `configDir` (removed first,
 * left in place for measureWarm), waits for the build, measures heap and ArrayBuffers after a full GC, `search`
 * over HTTP from the client process forked from `clientScript` (build/search-client.cjs; started before the boot,
 * connected after the build, `tools/list` first: 5 runs of each query of the mix, then of the heavy queries),
 * then the same passes once more, at 100k notes and more each query's engine and HTTP time, and the
 * memory once the plugin is unloaded (the host's own, subtracted to give the plugin's).
 * @returns the row (its search figures the client process's first passes) with its warm figures NaN, and its detail lines
 * @throws Error when the plugin does not start, a search fails at the transport level, or the client process
 *   fails, exits or replies out of protocol (RemoteSearchClient).
 */
export async function measureCold(Plugin: PluginClass, vault: TableVault, clientScript: string): Promise<MeasuredRow> {
  const configFolder = nodePath.join(vault.path, vault.configDir);
  await fsp.rm(configFolder, { recursive: true, force: true });
  // Started before the boot so that its own start (Node, the SDK's code) is over before the build.
  const remote = await RemoteSearchClient.start(clientScript);
  try {
    return await coldRow(Plugin, vault, remote);
  } finally {
    await remote.close();
  }
}

/** measureCold's row once the client process has started: boot, build, the client's passes, the engine's times, the memory. */
async function coldRow(Plugin: PluginClass, vault: TableVault, remote: RemoteSearchClient): Promise<MeasuredRow> {
  const booted = await bootPlugin(Plugin, rowBoot(vault));
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const buildCpu = process.cpuUsage();
  const index = indexOf(booted.plugin);
  await index.whenBuilt();
  const { user, system } = process.cpuUsage(buildCpu);
  loop.disable();
  const cold = index.stats;
  const after = memoryMb();
  const engine = (index as unknown as { engine: EngineView }).engine;
  const footprint = engine.footprint();
  const tools = await remote.connect(booted.url, booted.token);
  const [queries, heavy] = await remote.passes([vault.queries, vault.heavy], 5);
  const p = percentiles(queries);
  const h = percentiles(heavy);
  // The same passes again: right after a build the host's heap is due a major collection and the engine's code is not yet optimized (docs/performance.md).
  const [again, againHeavy] = (await remote.passes([vault.queries, vault.heavy], 5)).map(percentiles);
  const profiled = vault.notes >= 90_000 ? [...vault.queries, ...vault.heavy] : [];
  const perQuery = profiled.map((query) => [query]);
  const httpMs = profiled.length === 0 ? [] : (await remote.passes(perQuery, 5)).map((samples) => percentiles(samples).p50);
  // The engine runs come after the client has gone, as an HTTP connection left idle meanwhile may be reset by the server.
  await remote.close();
  const profile = (await engineTimes(engine, booted.app, profiled)).map((e, i) => ({ ...e, httpMs: httpMs[i] }));
  // A save still running at the unload keeps the index's arrays reachable, and the host's figure would hold them.
  const saved = await saveDone(index, SAVE_WAIT_MS);
  unloadPluginInHost(booted.plugin);
  // Settled: the unloaded index's arrays, already garbage, must not count as the host's.
  const host = await settledMemoryMb();
  const left = engine.footprint();
  await booted.stop();
  const row: ScalingRow = {
    label: vault.label,
    notes: vault.notes,
    textMb: vault.bytes / 1e6,
    indexMs: cold.buildMs ?? NaN,
    longestSliceMs: cold.longestSliceMs,
    loopDelayMs: loop.max / 1e6,
    warmMs: NaN,
    warmSliceMs: NaN,
    warmBuildSliceMs: NaN,
    heapAfterMb: after.heap,
    arraysAfterMb: after.arrays,
    pluginMb: after.heap + after.arrays - host.heap - host.arrays,
    searchP50: p.p50,
    searchP95: p.p95,
    heavyP50: h.p50,
    heavyP95: h.p95,
    peakRssMb: process.resourceUsage().maxRSS / 1000,
    targets: vault.targets,
  };
  const mb = (bytes: number): string => (bytes / 1e6).toFixed(0);
  const details = [
    `            index arrays: postings ${mb(footprint.postings)} MB (${mb(footprint.postingsUsed)} MB used), per-note term lists ${mb(footprint.docTerms)} MB, ` +
      `per-note lengths and scratch ${mb(footprint.perDoc)} MB, phrase filters ${mb(footprint.phraseFilters ?? 0)} MB; ${footprint.terms} terms`,
    `            cold build: ${((user + system) / 1e6).toFixed(1)} s of this process's CPU (all threads, GC included) from the server listening to the index built; ` +
      `wall time beyond it is other work on the machine or waiting on the disk`,
    saved
      ? `            cold save: ${ms(index.stats.saveMs ?? NaN)} ms, done before the plugin's unload`
      : `            cold save: not done ${SAVE_WAIT_MS / 1000} s after the searches; the host's figure may hold the index's arrays (plugin MB too low)`,
    `            search from a client in a process of its own (as a user's client: connected after the build, tools/list (${tools} tools), then the passes, each call timed at the client): p50 / p95 ${ms(p.p50)} / ${ms(p.p95)} ms, heavy ${ms(h.p50)} / ${ms(h.p95)} ms (the row's figures); first call ${ms(queries[0])} ms`,
    `            search again (the client process's passes once more, after the build's aftermath): p50 / p95 ${ms(again.p50)} / ${ms(again.p95)} ms, heavy ${ms(againHeavy.p50)} / ${ms(againHeavy.p95)} ms (the row and its targets keep the first passes)`,
    `            process: host after the plugin's unload heap ${host.heap.toFixed(0)} MB + arrays ${host.arrays.toFixed(0)} MB; ` +
      `the index's own arrays then ${mb(left.postings + left.docTerms + left.perDoc + (left.phraseFilters ?? 0))} MB; peak RSS ${row.peakRssMb.toFixed(0)} MB; heap limit ${(v8.getHeapStatistics().heap_size_limit / 1e6).toFixed(0)} MB`,
  ];
  if (profile.length > 0) {
    details.push(
      `            where a search's time goes (p50 of 5, ms): engine = ranking or filter incl. reading notes to verify phrases; HTTP = the whole tool call`,
      '              query                                 matches   engine ms   HTTP ms',
      ...profile.map(
        (q) =>
          `              ${q.query.padEnd(36)} ${String(q.matches).padStart(9)} ${ms(q.engineMs).padStart(11)} ${ms(q.httpMs).padStart(9)}`,
      ),
    );
  }
  return { row, details };
}

/**
 * Boots `Plugin` on `vault` from the index measureCold saved under its `configDir`, as the
 * plugin starts after Obsidian restarts, and waits for the saved index to be loaded and the
 * changed notes reindexed, then for the block bounds and phrase filters it loads after completeness.
 * @returns the build's ms, the longest slice (ms) of the build and of that work after it, and of the build alone; warmMs NaN when no saved index was loaded
 * @throws Error when the plugin does not start.
 */
export async function measureWarm(Plugin: PluginClass, vault: TableVault): Promise<WarmFigures> {
  const unwrittenMbAtStart = await unwrittenFileMb();
  const booted = await bootPlugin(Plugin, rowBoot(vault));
  const cpu = process.cpuUsage();
  const listening = performance.now();
  const index = indexOf(booted.plugin);
  await index.whenBuilt();
  const warmBuildSliceMs = index.stats.longestSliceMs;
  // What a warm start runs after completeness (the block bounds, then the phrase filters) holds the UI in slices too: they count in the warm slice.
  await index.phrasesLoaded;
  const warmWallMs = performance.now() - listening;
  const used = process.cpuUsage(cpu);
  const stats = index.stats;
  await booted.stop();
  return {
    warmMs: stats.warm ? (stats.buildMs ?? NaN) : NaN,
    warmSliceMs: stats.longestSliceMs,
    warmBuildSliceMs,
    warmCpuMs: (used.user + used.system) / 1000,
    warmWallMs,
    unwrittenMbAtStart,
  };
}

/**
 * File data the kernel holds that it has not yet written to disk (`Dirty` + `Writeback` of /proc/meminfo), MB
 * (10^6 bytes): written back in the background while a warm start runs, it takes CPU and disk from it.
 * @returns NaN where /proc/meminfo cannot be read (not Linux)
 */
export async function unwrittenFileMb(meminfo = '/proc/meminfo'): Promise<number> {
  const text = await fsp.readFile(meminfo, 'utf8').catch(() => null);
  if (text === null) return NaN;
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
  return ((kb('Dirty') + kb('Writeback')) * 1024) / 1e6;
}

/** A row's boot: the server's answer not held for the index, which is saved under the vault's run config folder. */
function rowBoot(vault: TableVault): BootOptions {
  return { vaultPath: vault.path, waitForIndex: false, persistIndex: true, configDir: vault.configDir };
}

/** How long a row waits after its searches for the cold build's save to finish, ms. */
const SAVE_WAIT_MS = 60_000;

/** Resolves true once the index's save has finished (stats.saveMs set), false after `waitMs`. */
async function saveDone(index: ReturnType<typeof indexOf>, waitMs: number): Promise<boolean> {
  const until = Date.now() + waitMs;
  while (index.stats.saveMs === null) {
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/** Per query: its matches and the engine's time alone (LexicalEngine.match over every note, the caller seeing all), p50 of 5 runs. */
async function engineTimes(
  engine: EngineView,
  app: unknown,
  queries: string[],
): Promise<{ query: string; matches: number; engineMs: number }[]> {
  const vault = (app as { vault: { getFileByPath(path: string): unknown; cachedRead(file: never): Promise<string> } }).vault;
  const read = (path: string): Promise<string> => {
    const file = vault.getFileByPath(path);
    return file === null ? Promise.reject(new Error(`${path} is gone`)) : vault.cachedRead(file as never);
  };
  const out: { query: string; matches: number; engineMs: number }[] = [];
  for (const query of queries) {
    let matches = 0;
    const engineRuns = await timeRuns(async () => {
      matches = (await engine.match(parseQuery(query), read, { key: 'bench', allow: () => true }, new RegexGuard(), 20)).total;
    }, 5);
    out.push({ query, matches, engineMs: percentiles(engineRuns).p50 });
  }
  return out;
}
