/**
 * `node scripts/profile-warm.mjs [notes | x7 | large] [--fresh] [--cold] [--no-profile]`: where a warm start's time goes on a
 * generated vault (default 100k notes, reused from the bench's cache), with `x7` on the
 * bench's seven copies of the PowerShell vault (made by a `--rows powershell-x7` bench run), with
 * `large` on the 14k PowerShell vault the bench's `large` part unpacks. Boots src/main in the
 * host (not main.js, so the CPU profile names our functions) with the index saved under the
 * vault's `.obsidian-profile-warm-<format>` config folder (format 5's had no suffix): a cold boot
 * first when no saved index is there (or with --fresh), then a warm boot under a CPU profile; with --cold the saved index is
 * removed and the cold boot is the one profiled. Prints the build's figures (build ms, longest
 * slice, CPU time), the slices over 50 ms with the process's CPU time in them and where they ended, the garbage collections'
 * pauses, how long after completeness the block bounds and phrase filters were in (and the longest slice then), the event loop's idle time (waiting for disk with nothing else to run: what overlapping the
 * reads with other work could win), and the functions with the most self and total time. With --no-profile no CPU
 * profile is taken (the profiler lengthens slices and shifts time between stages): the figures and
 * slices alone. Prints figures; asserts nothing.
 * Not part of `npm run bench` (slow; the saved index stays for the next run).
 */
import { existsSync, promises as fsp } from 'node:fs';
import * as inspector from 'node:inspector';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { performance } from 'node:perf_hooks';
import { provideObsidianModule } from '../obsidian-module';
import { bootPlugin, type BootOptions } from '../../test/harness/boot-plugin';
import { generateVault } from '../bench/generate-vault';
import VaultMcpPlugin from '../../src/main';
import { Slicer } from '../../src/search/engine/slicer';
import { SearchIndex } from '../../src/search/search-index';
import { INDEX_FORMAT } from '../../src/search/engine/index-file';
import { printProfile, printWindow, watchGcPauses, type Profile } from './profile-summary';
import { sevenCopies } from './profile-vaults';

/** A folder per saved format (format 5 had none of its own), so that trees of two formats profiled in turn each find their file warm. */
const CONFIG_DIR = `.obsidian-profile-warm-${INDEX_FORMAT}`;
/** Slices at least this long are listed with the stack where they ended, ms. */
const LONG_SLICE_MS = 50;

/**
 * Boots the plugin cold with `boot`, waits for the index to be built and saved, prints both
 * times and stops it. A call of its own, so that none of its host stays reachable (through a
 * caller's locals) while the warm boot is profiled.
 */
async function coldBootAndSave(boot: BootOptions): Promise<void> {
  const first = await bootPlugin(VaultMcpPlugin, boot);
  const index = (first.plugin as unknown as { search: IndexInternals }).search;
  await index.whenBuilt();
  while (index.stats.saveMs === null) await new Promise((resolve) => setTimeout(resolve, 100));
  console.log(`cold boot: index ${((index.stats.buildMs ?? 0) / 1000).toFixed(1)} s, saved in ${(index.stats.saveMs / 1000).toFixed(1)} s`);
  await first.stop();
}

function post<T>(session: inspector.Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res as T))));
}

interface IndexInternals {
  stats: { buildMs: number | null; longestSliceMs: number; warm: boolean; reindexed: number; total: number; saveMs: number | null };
  whenBuilt(): Promise<void>;
  save(): Promise<void>;
  /** Settles once a warm start's block bounds, then its phrase filters, are in (null without saved filters). */
  phrasesLoaded: Promise<boolean> | null;
}

/** A long slice: its wall time, the process's CPU time meanwhile (all threads: a slice far longer in wall time than in CPU was preempted by other work on the machine), and where it ended. */
interface LongSlice {
  ms: number;
  cpuMs: number;
  at: string;
  /** When it ended, performance.now() ms. */
  end: number;
}

/** Records each slice of LONG_SLICE_MS or more with the stack of the pause that ended it (or of the read of the slicer's longest slice that a work's last slice ends with), and the pauses that yielded with the time until they resumed. */
function watchSlices(): { long: LongSlice[]; yields: { count: number; ms: number }; restore(): void } {
  const long: LongSlice[] = [];
  const yields = { count: 0, ms: 0 };
  const proto = Slicer.prototype as unknown as { pause(): Promise<void>; mark(): void; restart(): void };
  const { pause, mark, restart } = proto;
  // The process's CPU time when each slicer's current slice began.
  const cpuAtStart = new WeakMap<Slicer, NodeJS.CpuUsage>();
  const note = (slicer: Slicer): void => {
    const start = (slicer as unknown as { sliceStart: number; running: boolean }).sliceStart;
    const ms = performance.now() - start;
    if ((slicer as unknown as { running: boolean }).running && ms >= LONG_SLICE_MS) {
      const at = (new Error().stack ?? '')
        .split('\n')
        .slice(3, 9)
        .map((l) => l.trim())
        .join(' < ');
      const cpu = process.cpuUsage(cpuAtStart.get(slicer));
      long.push({ ms, cpuMs: cpuAtStart.has(slicer) ? (cpu.user + cpu.system) / 1000 : NaN, at, end: performance.now() });
    }
  };
  proto.pause = async function (this: Slicer) {
    const running = (this as unknown as { running: boolean }).running;
    if (running && this.due()) note(this);
    const before = performance.now();
    await pause.call(this);
    const waited = performance.now() - before;
    if (waited > 0.02 || !running) cpuAtStart.set(this, process.cpuUsage());
    if (waited > 0.02) {
      yields.count++;
      yields.ms += waited;
    }
  };
  proto.mark = function (this: Slicer) {
    note(this);
    mark.call(this);
  };
  proto.restart = function (this: Slicer) {
    restart.call(this);
    cpuAtStart.set(this, process.cpuUsage());
  };
  // A work's last slice has no pause after it: it shows when the work reads its slicer's longest slice as it ends.
  const longestMs = Object.getOwnPropertyDescriptor(Slicer.prototype, 'longestMs') as PropertyDescriptor;
  Object.defineProperty(Slicer.prototype, 'longestMs', {
    configurable: true,
    get(this: Slicer) {
      note(this);
      return (longestMs.get as () => number).call(this);
    },
  });
  return {
    long,
    yields,
    restore: () => {
      proto.pause = pause;
      proto.mark = mark;
      proto.restart = restart;
      Object.defineProperty(Slicer.prototype, 'longestMs', longestMs);
    },
  };
}

/** Garbage-collection pauses between `since()` and {@link stop} (ms, performance.now): count and sum by kind, and the longest ones with when they began. */
function watchGc(since: () => number): { stop(): void; print(): void } {
  const { pauses: all, stop } = watchGcPauses();
  let end = Infinity;
  return {
    stop: () => {
      end = performance.now();
      stop();
    },
    print: () => {
      const from = since();
      const pauses = all.filter((p) => p.start >= from && p.start < end);
      const byKind = new Map<string, { n: number; ms: number; max: number }>();
      for (const p of pauses) {
        const k = byKind.get(p.kind) ?? { n: 0, ms: 0, max: 0 };
        byKind.set(p.kind, { n: k.n + 1, ms: k.ms + p.ms, max: Math.max(k.max, p.ms) });
      }
      console.log(
        `gc pauses: ${[...byKind].map(([kind, k]) => `${kind} ${k.n} × (${k.ms.toFixed(0)} ms, longest ${k.max.toFixed(0)})`).join('; ')}`,
      );
      for (const p of pauses.sort((a, b) => b.ms - a.ms).slice(0, 8))
        console.log(`  ${p.ms.toFixed(0).padStart(6)} ms ${p.kind} at ${((p.start - from) / 1000).toFixed(1)} s`);
    },
  };
}

async function main(): Promise<void> {
  provideObsidianModule();
  const args = process.argv.slice(2);
  const vault = args.includes('x7')
    ? sevenCopies()
    : args.includes('large')
      ? { path: nodePath.join(os.tmpdir(), 'vault-mcp-bench-large', 'windows-powershell-docs') }
      : await generateVault(nodePath.join(os.tmpdir(), 'vault-mcp-bench-generated'), Number(args.find((a) => /^\d+$/.test(a)) ?? 100_000));
  const configFolder = nodePath.join(vault.path, CONFIG_DIR);
  const cold = args.includes('--cold');
  const profiled = !args.includes('--no-profile');
  if (cold || args.includes('--fresh')) await fsp.rm(configFolder, { recursive: true, force: true });
  const boot = { vaultPath: vault.path, waitForIndex: false, persistIndex: true, configDir: CONFIG_DIR };
  const indexFile = nodePath.join(configFolder, 'plugins', 'vault-mcp', 'search-index.json');
  if (!cold && !existsSync(indexFile)) await coldBootAndSave(boot);
  // The saved index: its head and the parts folder beside it (index-file.ts, format 7 on).
  const partsFolder = nodePath.join(nodePath.dirname(indexFile), 'search-index.parts');
  const saved = cold
    ? null
    : {
        size: (await Promise.all((await fsp.readdir(partsFolder)).map((name) => fsp.stat(nodePath.join(partsFolder, name))))).reduce(
          (sum, s) => sum + s.size,
          (await fsp.stat(indexFile)).size,
        ),
      };
  const slices = watchSlices();
  const session = new inspector.Session();
  session.connect();
  await post(session, 'Profiler.enable');
  await post(session, 'Profiler.setSamplingInterval', { interval: 500 });
  // The profile starts with the index's start (after the host has loaded the vault and its metadata).
  const proto = SearchIndex.prototype as unknown as { start(): Promise<void> };
  const start = proto.start;
  let cpu = process.cpuUsage();
  let t0 = performance.now();
  // The event loop's idle time from here (libuv's: blocked waiting for I/O or a timer with nothing else to run).
  let loop = performance.eventLoopUtilization();
  proto.start = function (this: SearchIndex) {
    if (profiled) session.post('Profiler.start');
    cpu = process.cpuUsage();
    loop = performance.eventLoopUtilization();
    t0 = performance.now();
    return start.call(this);
  };
  const gc = watchGc(() => t0);
  const booted = await bootPlugin(VaultMcpPlugin, boot);
  const index = (booted.plugin as unknown as { search: IndexInternals }).search;
  await index.whenBuilt();
  const builtAt = performance.now();
  const wall = builtAt - t0;
  const used = process.cpuUsage(cpu);
  const idle = performance.eventLoopUtilization(loop).idle;
  const builtSliceMs = index.stats.longestSliceMs;
  // What a warm start runs after completeness, still profiled (its long slices listed with the build's): the block bounds, then the phrase filters.
  const filtersIn = await index.phrasesLoaded;
  const afterMs = performance.now() - builtAt;
  proto.start = start;
  gc.stop();
  const profile = profiled ? (await post<{ profile: Profile }>(session, 'Profiler.stop')).profile : null;
  session.disconnect();
  slices.restore();
  const s = index.stats;
  console.log(
    `${s.total} notes, saved index ${saved === null ? 'removed' : `${(saved.size / 1e6).toFixed(0)} MB`}; warm ${s.warm ? 'yes' : 'NO'}, ${s.reindexed} reindexed; ` +
      `build ${(s.buildMs ?? NaN).toFixed(0)} ms, longest slice ${builtSliceMs.toFixed(0)} ms; index start to built ${wall.toFixed(0)} ms wall, ` +
      `${((used.user + used.system) / 1000).toFixed(0)} ms CPU`,
  );
  console.log(
    `after completeness: block bounds and phrase filters ${filtersIn === null ? 'none to load' : filtersIn ? 'in' : 'NOT in'}, ${afterMs.toFixed(0)} ms after completeness; longest slice since the start ${s.longestSliceMs.toFixed(0)} ms`,
  );
  console.log(`yields to the event loop: ${slices.yields.count}, ${slices.yields.ms.toFixed(0)} ms from yielding to resuming`);
  console.log(`event loop idle (nothing to run until a read or timer came back): ${idle.toFixed(0)} ms of the ${wall.toFixed(0)} ms`);
  console.log(`slices ≥ ${LONG_SLICE_MS} ms: ${slices.long.length}`);
  for (const l of slices.long.sort((a, b) => b.ms - a.ms).slice(0, 12))
    console.log(`  ${l.ms.toFixed(0).padStart(6)} ms (${l.cpuMs.toFixed(0).padStart(4)} ms CPU)  ${l.at}`);
  await new Promise((resolve) => setTimeout(resolve, 10));
  gc.print();
  if (profile !== null) {
    for (const l of slices.long.sort((a, b) => b.ms - a.ms).slice(0, 3))
      printWindow(profile, l.end - l.ms, l.end, `self time in the ${l.ms.toFixed(0)} ms slice`);
    printProfile(profile);
  }
  await booted.stop();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
