/**
 * The plugin's start-up cost in the host, the part of `npm run bench` that shows what
 * enabling Vault MCP adds to Obsidian's start: evaluating main.js, `onload` (from its start
 * until its promise settles, and the synchronous part before its first await), and the work
 * deferred to `workspace.onLayoutReady` (proposals, index start, server listening).
 */
import { existsSync, promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { performance } from 'node:perf_hooks';
import { bootPlugin } from '../../test/harness/boot-plugin';
import { ms, percentiles, type Log } from './measure';
import type { PluginClass } from './plugin-class';

/** One start of the plugin, in ms. */
export interface OnloadSample {
  /** `require(main.js)` with an empty module cache: parsing and evaluating the bundle. */
  evaluateMs: number;
  /** `onload()` from its call until it returns its promise (synchronous work before the first await). */
  onloadSyncMs: number;
  /** `onload()` from its call until its promise settles (includes awaiting loadData). */
  onloadMs: number;
  /** From onload's end until the server listens (the work after layout ready). */
  afterLayoutMs: number;
}

/**
 * Starts the built plugin `rounds` times in fresh host apps over a temp copy of `vault` (or a
 * one-note vault when `vault` is absent) and returns each start's figures. The bundle is
 * re-evaluated each round from `mainJs`.
 * @throws Error when the plugin does not start.
 */
export async function measureOnload(mainJs: string, vault: string, rounds: number): Promise<OnloadSample[]> {
  const dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-onload-'));
  try {
    if (existsSync(vault)) await fsp.cp(vault, dir, { recursive: true });
    else await fsp.writeFile(nodePath.join(dir, 'Note.md'), '# Note\n');
    const samples: OnloadSample[] = [];
    for (let round = 0; round < rounds; round++) {
      const resolved = require.resolve(mainJs);
      delete require.cache[resolved];
      const evaluateStart = performance.now();
      const Plugin = (require(resolved) as { default: PluginClass }).default;
      const evaluateMs = performance.now() - evaluateStart;
      let onloadSyncMs = 0;
      let onloadMs = 0;
      let onloadEnd = 0;
      class Timed extends Plugin {
        override async onload(): Promise<void> {
          const start = performance.now();
          const pending = super.onload();
          onloadSyncMs = performance.now() - start;
          await pending;
          onloadEnd = performance.now();
          onloadMs = onloadEnd - start;
        }
      }
      const booted = await bootPlugin(Timed, { vaultPath: dir, waitForIndex: false });
      const afterLayoutMs = performance.now() - onloadEnd;
      await booted.plugin.search.whenBuilt();
      await booted.stop();
      samples.push({ evaluateMs, onloadSyncMs, onloadMs, afterLayoutMs });
    }
    return samples;
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/**
 * Prints the start-up table for `rounds` starts of `mainJs` (see measureOnload): p50 and
 * max per phase. The first round includes cold JIT, so max shows the first start.
 */
export async function benchOnload(mainJs: string, vault: string, rounds: number, log: Log): Promise<void> {
  const samples = await measureOnload(mainJs, vault, rounds);
  const where = existsSync(vault) ? `a copy of ${nodePath.basename(vault)}` : 'a one-note vault';
  log(`\nPlugin start in the host (${rounds} starts on ${where}; Obsidian waits for onload, the rest runs after layout ready)`);
  log('phase                                   p50 ms    max ms');
  const rows: Array<[string, (s: OnloadSample) => number]> = [
    ['evaluate main.js (require)', (s) => s.evaluateMs],
    ['onload, synchronous part', (s) => s.onloadSyncMs],
    ['onload, until its promise settles', (s) => s.onloadMs],
    ['after layout ready, until listening', (s) => s.afterLayoutMs],
  ];
  for (const [name, pick] of rows) {
    const values = samples.map(pick);
    log(`${name.padEnd(38)} ${ms(percentiles(values).p50).padStart(7)} ${ms(Math.max(...values)).padStart(9)}`);
  }
}
