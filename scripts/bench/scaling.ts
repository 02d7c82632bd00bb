/**
 * The scaling table: generated vaults of growing size (1k, 10k, optionally 100k notes) and,
 * beside the largest, seven copies of the PowerShell vault in seven folders (≈ 99k real
 * notes), each loaded cold in the host with the plugin, then started again warm from the
 * saved index, reporting index build time, the longest slice and the event loop's longest
 * delay during the build, memory (the plugin's apart from the host's own) and search p50/p95,
 * for the bench's query mix and apart for queries whose terms match most notes. At 100k and
 * more it also prints where a search's time goes per query (engine vs page vs HTTP).
 */
import { existsSync, promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { bootPlugin, connectClient } from '../../test/harness/boot-plugin';
import { unloadPluginInHost } from '../../test/host/app';
import { parseQuery } from '../../src/search/query/query-parser';
import { RegexGuard } from '../../src/search/query/regex-guard';
import { generateVault, generatedQueries, heavyQueries } from './generate-vault';
import { LARGE_QUERIES, unpackLargeVault } from './large-vault';
import { memoryMb, ms, percentiles, timeRuns, type Log } from './measure';
import { indexOf, type PluginClass } from './plugin-class';

/** One row of the table; times in ms, heap in MB. */
export interface ScalingRow {
  label: string;
  notes: number;
  textMb: number;
  indexMs: number;
  /** Longest stretch the build ran without yielding (wall time, awaits on file reads included), ms. */
  longestSliceMs: number;
  /** Longest event-loop delay while the cold build ran (what a UI would feel), ms. */
  loopDelayMs: number;
  /** Warm start: the saved index loaded, changed notes reindexed; build ms and longest slice. */
  warmMs: number;
  warmSliceMs: number;
  heapAfterMb: number;
  arraysAfterMb: number;
  /** Heap + ArrayBuffers after indexing minus the same once the plugin is unloaded (the host's own), MB. */
  pluginMb: number;
  searchP50: number;
  searchP95: number;
  /** Over the heavy queries (terms matching most notes). */
  heavyP50: number;
  heavyP95: number;
}

/** A vault of the table: where it is and the queries it is searched with. */
interface TableVault {
  label: string;
  path: string;
  notes: number;
  bytes: number;
  queries: string[];
  heavy: string[];
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

/** Common words of the PowerShell docs, each in thousands of its notes: the heavy queries of the real-notes row. */
const REAL_HEAVY = ['the', 'command parameter', '"of the"', 'value object type string', 'get -set'];

/**
 * Generates (or reuses from the temp cache) a vault of each size in `sizes`, and beside the
 * 100k one the seven PowerShell copies (skipped with a message when the archive is absent);
 * on each boots the plugin with the index saved in the vault's plugin folder (removed before
 * and after), waits for the cold build, measures heap and ArrayBuffers after a full GC,
 * `search` over HTTP (5 passes over the query mix, then over the heavy queries), the memory
 * once the plugin is unloaded (the host's own, subtracted to give the plugin's), then boots
 * again warm; prints a row as soon as it is measured.
 * @throws Error when a size is not a positive integer or the plugin does not start.
 */
export async function scalingTable(Plugin: PluginClass, sizes: number[], archive: string, log: Log): Promise<ScalingRow[]> {
  const cache = nodePath.join(os.tmpdir(), 'vault-mcp-bench-generated');
  log(
    `\nGenerated vaults (seeded; Zipf-like vocabulary, frontmatter, headings, wikilinks, tags) and, beside 100k, 7 copies of the PowerShell vault; cold index, then a warm start from the saved index. ` +
      `Search over the query mix × 5 and "heavy" queries of the most frequent words × 5; slice: longest stretch without yielding (wall time); loop: longest event-loop delay during the cold build; ` +
      `arrays: ArrayBuffers (typed arrays, outside the heap); plugin: heap + arrays above the host's own. Timing figures come from a machine shared with other work:`,
  );
  log(
    '  vault              notes   text MB   index s   slice ms   loop ms   warm s   warm slice ms   heap MB   arrays MB   plugin MB   search p50 / p95 ms   heavy p50 / p95 ms',
  );
  const rows: ScalingRow[] = [];
  for (const size of sizes) {
    const vault = await generateVault(cache, size);
    rows.push(
      await measureVault(
        Plugin,
        {
          label: `generated ${size >= 1000 ? `${size / 1000}k` : size}`,
          path: vault.path,
          notes: vault.notes,
          bytes: vault.bytes,
          queries: generatedQueries(),
          heavy: heavyQueries(),
        },
        log,
      ),
    );
    if (size >= 100_000) {
      const copies = await sevenCopies(archive, log);
      if (copies !== null) rows.push(await measureVault(Plugin, copies, log));
    }
  }
  return rows;
}

/** Cold boot, measures, unload, warm boot; one row. */
async function measureVault(Plugin: PluginClass, vault: TableVault, log: Log): Promise<ScalingRow> {
  const pluginFolder = nodePath.join(vault.path, '.obsidian');
  await fsp.rm(pluginFolder, { recursive: true, force: true });
  const booted = await bootPlugin(Plugin, { vaultPath: vault.path, waitForIndex: false, persistIndex: true });
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const index = indexOf(booted.plugin);
  await index.whenBuilt();
  loop.disable();
  const cold = index.stats;
  const after = memoryMb();
  const engine = (index as unknown as { engine: EngineView }).engine;
  const footprint = engine.footprint();
  const client = await connectClient(booted.url, booted.token);
  const pass = async (list: string[]): Promise<ReturnType<typeof percentiles>> => {
    const samples: number[] = [];
    for (const query of list) samples.push(...(await timeRuns(() => client.callTool({ name: 'search', arguments: { query } }), 5)));
    return percentiles(samples);
  };
  const p = await pass(vault.queries);
  const h = await pass(vault.heavy);
  const profiled = vault.notes >= 100_000 ? [...vault.queries, ...vault.heavy] : [];
  const httpMs: number[] = [];
  for (const query of profiled)
    httpMs.push(percentiles(await timeRuns(() => client.callTool({ name: 'search', arguments: { query } }), 5)).p50);
  // The engine runs come after the client is closed: an HTTP connection left idle meanwhile may be reset by the server.
  await client.close();
  const profile = (await engineTimes(engine, booted.app, profiled)).map((e, i) => ({ ...e, httpMs: httpMs[i] }));
  unloadPluginInHost(booted.plugin);
  const host = memoryMb();
  await booted.stop();
  const warmBoot = await bootPlugin(Plugin, { vaultPath: vault.path, waitForIndex: false, persistIndex: true });
  const warmIndex = indexOf(warmBoot.plugin);
  await warmIndex.whenBuilt();
  const warm = warmIndex.stats;
  await warmBoot.stop();
  await fsp.rm(pluginFolder, { recursive: true, force: true });
  const row: ScalingRow = {
    label: vault.label,
    notes: vault.notes,
    textMb: vault.bytes / 1e6,
    indexMs: cold.buildMs ?? NaN,
    longestSliceMs: cold.longestSliceMs,
    loopDelayMs: loop.max / 1e6,
    warmMs: warm.warm ? (warm.buildMs ?? NaN) : NaN,
    warmSliceMs: warm.longestSliceMs,
    heapAfterMb: after.heap,
    arraysAfterMb: after.arrays,
    pluginMb: after.heap + after.arrays - host.heap - host.arrays,
    searchP50: p.p50,
    searchP95: p.p95,
    heavyP50: h.p50,
    heavyP95: h.p95,
  };
  log(
    `  ${row.label.padEnd(16)} ${String(row.notes).padStart(7)} ${row.textMb.toFixed(1).padStart(9)} ${(row.indexMs / 1000).toFixed(1).padStart(9)} ${ms(row.longestSliceMs).padStart(10)} ` +
      `${ms(row.loopDelayMs).padStart(9)} ${(row.warmMs / 1000).toFixed(1).padStart(8)} ${ms(row.warmSliceMs).padStart(15)} ${row.heapAfterMb.toFixed(0).padStart(9)} ` +
      `${row.arraysAfterMb.toFixed(0).padStart(11)} ${row.pluginMb.toFixed(0).padStart(11)} ${`${ms(row.searchP50)} / ${ms(row.searchP95)}`.padStart(21)} ${`${ms(row.heavyP50)} / ${ms(row.heavyP95)}`.padStart(20)}`,
  );
  const mb = (bytes: number): string => (bytes / 1e6).toFixed(0);
  log(
    `            index arrays: postings ${mb(footprint.postings)} MB (${mb(footprint.postingsUsed)} MB used), per-note term lists ${mb(footprint.docTerms)} MB, ` +
      `per-note lengths and scratch ${mb(footprint.perDoc)} MB, phrase filters ${mb(footprint.phraseFilters ?? 0)} MB; ${footprint.terms} terms`,
  );
  if (profile.length > 0) {
    log(
      `            where a search's time goes (p50 of 5, ms): engine = ranking or filter incl. reading notes to verify phrases; HTTP = the whole tool call`,
    );
    log('              query                                 matches   engine ms   HTTP ms');
    for (const q of profile)
      log(
        `              ${q.query.padEnd(36)} ${String(q.matches).padStart(9)} ${ms(q.engineMs).padStart(11)} ${ms(q.httpMs).padStart(9)}`,
      );
  }
  return row;
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

/**
 * Seven copies of the PowerShell vault (unpacked from `archive`), one per folder `copy-1` …
 * `copy-7` of a temp folder, as hard links where the file system allows (made once).
 * @returns the vault, or null after saying why when the archive is absent
 */
async function sevenCopies(archive: string, log: Log): Promise<TableVault | null> {
  if (!existsSync(archive)) {
    log(`  (7 copies of the PowerShell vault skipped: ${archive} is absent)`);
    return null;
  }
  const source = await unpackLargeVault(archive, log);
  if (source === null) return null;
  const dir = nodePath.join(os.tmpdir(), 'vault-mcp-bench-powershell-x7');
  const marker = `${dir}.done`;
  if (!existsSync(marker)) {
    await fsp.rm(dir, { recursive: true, force: true });
    for (let i = 1; i <= 7; i++) await copyTree(source, nodePath.join(dir, `copy-${i}`));
    await fsp.writeFile(marker, '');
  }
  let notes = 0;
  let bytes = 0;
  for (const entry of await fsp.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.md')) continue;
    notes++;
    bytes += (await fsp.stat(nodePath.join(entry.parentPath, entry.name))).size;
  }
  return { label: 'PowerShell × 7', path: dir, notes, bytes, queries: LARGE_QUERIES, heavy: REAL_HEAVY };
}

/** Copies the tree at `from` to `to` (without `.obsidian`), hard-linking files, copying when linking fails. */
async function copyTree(from: string, to: string): Promise<void> {
  await fsp.mkdir(to, { recursive: true });
  for (const entry of await fsp.readdir(from, { withFileTypes: true })) {
    if (entry.name === '.obsidian') continue;
    const a = nodePath.join(from, entry.name);
    const b = nodePath.join(to, entry.name);
    if (entry.isDirectory()) await copyTree(a, b);
    else if (entry.isFile()) await fsp.link(a, b).catch(() => fsp.copyFile(a, b));
  }
}
