/**
 * The obsidian-help-en part of the bench (173 notes, copied to a temp folder): index build,
 * `search`, `read_note` (whole note, outline) and ping over the SDK client on real HTTP.
 * Also what `--quick` runs in CI.
 */
import { existsSync, promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { performance } from 'node:perf_hooks';
import { bootPlugin, connectClient } from '../../test/harness/boot-plugin';
import { percentiles, timeRuns, type Log } from './measure';
import { comparePeer, COMPARE_LIMIT, type PeerBudget } from './peer';
import { indexOf, type PluginClass } from './plugin-class';

/** The queries timed on obsidian-help-en (operators included: phrase, OR, NOT, path:). */
export const HELP_QUERIES = [
  'canvas',
  'sync',
  '"daily notes"',
  'tag:#x OR plugin',
  'link -embed',
  'path:Plugins template',
  'publish',
  'graph view',
  'hotkey',
  'frontmatter properties',
];

/** How much to measure: passes over the queries and over the read paths, and whether to run the peer too (null: no peer). */
export interface HelpBenchOptions {
  searchRounds: number;
  readRounds: number;
  peer: PeerBudget | null;
}

/** Light figures for CI (`--quick`): a few passes, no peer (no network). */
export const QUICK: HelpBenchOptions = { searchRounds: 3, readRounds: 2, peer: null };
/** The normal run. */
export const NORMAL: HelpBenchOptions = { searchRounds: 10, readRounds: 5, peer: { rounds: 5, budgetMs: 20_000 } };

/**
 * Runs the obsidian-help-en bench with `Plugin` on a temp copy of `vault` and prints its table.
 * Returns false (after printing why) when the vault is absent, true when figures were printed.
 * @throws Error when the plugin does not start or a call fails at the transport level.
 */
export async function benchHelpVault(Plugin: PluginClass, vault: string, options: HelpBenchOptions, log: Log): Promise<boolean> {
  if (!existsSync(vault)) {
    log(`Skipping the obsidian-help-en benchmark: ${vault} is absent.`);
    return false;
  }
  const dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-bench-'));
  try {
    await fsp.cp(vault, dir, { recursive: true });
    const bootStart = performance.now();
    const booted = await bootPlugin(Plugin, { vaultPath: dir, waitForIndex: false });
    const listening = performance.now();
    const client = await connectClient(booted.url, booted.token);
    const first = await client.callTool({ name: 'search', arguments: { query: 'canvas' } });
    const firstAnswer = performance.now() - listening;
    const progress = (first.structuredContent as { index?: { indexed: number; total: number } } | undefined)?.index;
    await indexOf(booted.plugin).whenBuilt();
    const firstNote = progress ? `partial, ${progress.indexed} of ${progress.total} notes indexed` : 'complete';
    const notes = booted.app.vault.getMarkdownFiles();
    log(
      `obsidian-help-en: ${notes.length} notes; host loaded and plugin listening in ${(listening - bootStart).toFixed(0)} ms; first search answered ${firstAnswer.toFixed(0)} ms after listening (${firstNote})`,
    );

    const perQuery: number[] = [];
    for (let r = 0; r < options.searchRounds; r++) {
      for (const query of HELP_QUERIES)
        perQuery.push(...(await timeRuns(() => client.callTool({ name: 'search', arguments: { query, limit: COMPARE_LIMIT } }), 1)));
    }
    const paths = notes.slice(0, 40).map((f) => f.path);
    const perRead: number[] = [];
    const perOutline: number[] = [];
    for (let r = 0; r < options.readRounds; r++) {
      for (const path of paths) {
        perRead.push(...(await timeRuns(() => client.callTool({ name: 'read_note', arguments: { path } }), 1)));
        perOutline.push(...(await timeRuns(() => client.callTool({ name: 'read_note', arguments: { path, outline: true } }), 1)));
      }
    }
    const pingSamples = await timeRuns(() => client.ping(), 20 * options.readRounds);
    const ping = percentiles(pingSamples).p50;
    log('operation                          p50 ms   p95 ms   × ping   calls');
    for (const [name, samples] of [
      ['ping (HTTP + session round trip)', pingSamples],
      [`search (${HELP_QUERIES.length} queries)`, perQuery],
      ['read_note whole note', perRead],
      ['read_note outline', perOutline],
    ] as Array<[string, number[]]>) {
      const s = percentiles(samples);
      log(
        `${name.padEnd(34)} ${s.p50.toFixed(2).padStart(6)} ${s.p95.toFixed(2).padStart(8)} ${(s.p50 / ping).toFixed(1).padStart(8)} ${String(s.count).padStart(7)}`,
      );
    }
    log(`search / read_note p50 ratio: ${(percentiles(perQuery).p50 / percentiles(perRead).p50).toFixed(1)}`);
    await client.close();
    await booted.stop();
    if (options.peer) {
      await comparePeer(
        'obsidian-help-en',
        dir,
        HELP_QUERIES,
        { startToFirstAnswerMs: firstAnswer, firstAnswerNote: firstNote, samples: perQuery },
        options.peer,
        log,
      );
    }
    return true;
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
