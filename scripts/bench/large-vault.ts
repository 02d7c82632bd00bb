/**
 * The 14k-note vault part of the bench (windows-powershell-docs, unpacked once into a temp
 * cache): cold and warm start (time to first answer, build, longest build slice, save, heap),
 * p50 of search and the list tools, then on the warm plugin the 8-session throughput and the
 * same queries timed for the side-by-side with the peer.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { performance } from 'node:perf_hooks';
import { bootPlugin, connectClient } from '../../test/harness/boot-plugin';
import { heapMb, ms, percentiles, timeRuns, type Log } from './measure';
import { comparePeer, COMPARE_LIMIT, type OurSearchFigures, type PeerBudget } from './peer';
import { benchConfigDir, indexOf, type PluginClass } from './plugin-class';
import { measureThroughput, printThroughput } from './throughput';

/** The queries timed on the 14k vault (ours and the peer's). */
export const LARGE_QUERIES = [
  'Get-Process',
  'remote session',
  'Get-ChildItem',
  'computer',
  'certificate store',
  '"execution policy"',
  'firewall rule',
  'registry key',
];

/** What to run besides the cold/warm rounds: the peer (null: not) and the throughput run's length (0: not). */
export interface LargeBenchOptions {
  peer: PeerBudget | null;
  throughputMs: number;
}

/**
 * The 14k-note vault unpacked from `archive` into a cache folder under the temp dir (once;
 * shared by every bench run, so a run keeps its saved index in a config folder of its own,
 * benchConfigDir); null (after printing why) when the archive is absent or tar fails.
 */
export async function unpackLargeVault(archive: string, log: Log): Promise<string | null> {
  if (!existsSync(archive)) {
    log(`Skipping the large-vault benchmark: ${archive} is absent.`);
    return null;
  }
  const cache = nodePath.join(os.tmpdir(), 'vault-mcp-bench-large');
  const vault = nodePath.join(cache, 'windows-powershell-docs');
  if (!existsSync(vault)) {
    await fsp.mkdir(cache, { recursive: true });
    try {
      execFileSync('tar', ['--zstd', '-xf', archive, '-C', cache]);
    } catch (error) {
      log(`Skipping the large-vault benchmark: cannot unpack ${archive} (${(error as Error).message.split('\n')[0]}).`);
      return null;
    }
  }
  return vault;
}

/**
 * Runs the 14k-vault bench with `Plugin` on the vault unpacked from `archive` and prints it.
 * @throws Error when the plugin does not start.
 */
export async function benchLargeVault(Plugin: PluginClass, archive: string, options: LargeBenchOptions, log: Log): Promise<void> {
  const vault = await unpackLargeVault(archive, log);
  if (vault === null) return;
  const configDir = benchConfigDir();
  await fsp.rm(nodePath.join(vault, configDir), { recursive: true, force: true });
  try {
    await coldAndWarm(Plugin, vault, configDir, options, log);
  } finally {
    await fsp.rm(nodePath.join(vault, configDir), { recursive: true, force: true });
  }
}

/** The cold round (index built, saved under `configDir`) and the warm round (loaded from it) on `vault`, printed; then the peer beside them. */
async function coldAndWarm(Plugin: PluginClass, vault: string, configDir: string, options: LargeBenchOptions, log: Log): Promise<void> {
  // Each round runs in a call of its own: once it returns, nothing of its host and plugin is reachable from here, so the
  // warm round's heap holds one host, as after a restart (in one loop body the cold round's locals kept its host alive).
  const cold = await benchRound(Plugin, vault, configDir, 'cold', options, log);
  const warm = await benchRound(Plugin, vault, configDir, 'warm', options, log);
  if (options.peer)
    await comparePeer('14k vault', vault, LARGE_QUERIES, { ...cold.firstAnswer, samples: warm.searchSamples }, options.peer, log);
}

/**
 * One round on `vault`: boots `Plugin` (cold: builds and saves the index under `configDir`;
 * warm: loads it), prints the first answer, the build, the heap and each call's p50 / p95, on
 * the warm round the throughput run, and stops the plugin.
 * @returns the first answer's figures and every search sample (ms)
 * @throws Error when the plugin does not start or a call fails at the transport level.
 */
async function benchRound(
  Plugin: PluginClass,
  vault: string,
  configDir: string,
  round: 'cold' | 'warm',
  options: LargeBenchOptions,
  log: Log,
): Promise<{ firstAnswer: Omit<OurSearchFigures, 'samples'>; searchSamples: number[] }> {
  const bootStart = performance.now();
  const booted = await bootPlugin(Plugin, { vaultPath: vault, waitForIndex: false, persistIndex: true, configDir });
  const listening = performance.now();
  // The heap figure is taken by a full GC of the host's heap (about 500 MB here), which blocks the build too: the
  // first answer is timed from its end, as a client arriving as the server listens would wait (issue 20's "first answer").
  const hostHeap = heapMb();
  const clientStart = performance.now();
  const index = indexOf(booted.plugin);
  const client = await connectClient(booted.url, booted.token);
  const first = await client.callTool({ name: 'search', arguments: { query: LARGE_QUERIES[0], limit: COMPARE_LIMIT } });
  const answered = performance.now();
  const progress = (first.structuredContent as { index?: { indexed: number; total: number } } | undefined)?.index;
  const firstAnswer = {
    startToFirstAnswerMs: answered - clientStart,
    firstAnswerNote: progress ? `partial, ${progress.indexed} of ${progress.total} notes indexed` : 'complete',
  };
  await index.whenBuilt();
  const s = index.stats;
  const notes = booted.app.vault.getMarkdownFiles();
  log(`\n14k vault (${notes.length} notes), ${round} start: host loaded and plugin listening in ${(listening - bootStart).toFixed(0)} ms`);
  log(
    `  first search answered ${(answered - clientStart).toFixed(0)} ms after listening${progress ? ` (partial: ${progress.indexed} of ${progress.total} notes indexed)` : ''}` +
      ` (the heap figure's full GC before it, ${(clientStart - listening).toFixed(0)} ms, not counted)`,
  );
  log(
    `  index ${round === 'warm' ? `loaded from the saved file, ${s.reindexed} notes reindexed` : 'built'} in ${(s.buildMs ?? NaN).toFixed(0)} ms; ` +
      `longest build slice ${s.longestSliceMs.toFixed(1)} ms; save ${s.saveMs === null ? 'skipped (nothing changed)' : `${s.saveMs.toFixed(0)} ms`}`,
  );
  log(`  heap: host + idle plugin ${hostHeap.toFixed(0)} MB, after indexing ${heapMb().toFixed(0)} MB`);
  const file = notes[500].path;
  const rows: Array<[string, string, Record<string, unknown>]> = [
    ...LARGE_QUERIES.map((query): [string, string, Record<string, unknown>] => [
      `search ${query}`,
      'search',
      { query, limit: COMPARE_LIMIT },
    ]),
    ['read_note', 'read_note', { path: file }],
    ['list_notes (limit 200)', 'list_notes', { limit: 200 }],
    ['list_tags', 'list_tags', {}],
    ['list_folders', 'list_folders', {}],
    ['get_links', 'get_links', { path: file }],
  ];
  log('  call                              p50 ms   p95 ms');
  const searchSamples: number[] = [];
  for (const [label, name, args] of rows) {
    const samples = await timeRuns(() => client.callTool({ name, arguments: args }), 9);
    if (name === 'search') searchSamples.push(...samples);
    const st = percentiles(samples);
    log(`  ${label.padEnd(32)} ${ms(st.p50).padStart(7)} ${ms(st.p95).padStart(8)}`);
  }
  const all = percentiles(searchSamples);
  log(`  search over all ${LARGE_QUERIES.length} queries: p50 ${ms(all.p50)} ms, p95 ${ms(all.p95)} ms`);
  if (round === 'warm' && options.throughputMs > 0) {
    const paths = notes.filter((_, i) => i % 97 === 0).map((f) => f.path);
    printThroughput(await measureThroughput(booted.url, booted.token, { queries: LARGE_QUERIES, paths }, 8, options.throughputMs), log);
  }
  await client.close();
  await booted.stop();
  return { firstAnswer, searchSamples };
}
