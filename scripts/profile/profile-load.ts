/**
 * `node scripts/profile-load.mjs <plugin folder> [--notes <vault folder>]`: where the load of a
 * saved search index goes, without the host. Reads the head and parts that a run left in
 * `<plugin folder>` (e.g. `<vault>/.obsidian-profile-warm-7/plugins/vault-mcp`, made by
 * `profile-warm.mjs`), feeds them to `LexicalEngine.load` as a warm start does (phrase filters
 * left for later), then runs what follows a warm start's completeness in SearchIndex's order: the
 * block bounds' steps (timed, with their longest step), the phrase filters, then the pack and
 * ranking steps (each as one step, not in the plugin's slices; the load's longest step is measured
 * up to them). Prints, by
 * line kind, the lines' count, the time to read and parse them and the engine's work on them
 * (wall and process CPU), the longest step between two pauses, and the garbage collections'
 * pauses. With `--notes`, first holds the text of every note under that folder in memory, as the
 * host's vault does after its metadata pass (a large live heap changes what collections cost).
 * Seconds where a host boot takes minutes: for comparing a load's stages between trees or vaults.
 * Prints figures; asserts nothing; changes no file.
 */
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { openIndex } from '../../src/search/engine/index-file';
import { LexicalEngine, type EngineLine } from '../../src/search/engine/lexical-engine';
import { vaultNotes } from './profile-vaults';

/** Wall and CPU time of one stage, ms, over `n` lines. */
interface Stage {
  n: number;
  ms: number;
  cpuMs: number;
  maxMs: number;
}

/** Process CPU time (all threads), ms. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Adds one line's `ms` and `cpu` to `stages[kind]`. */
function add(stages: Map<string, Stage>, kind: string, ms: number, cpu: number): void {
  const s = stages.get(kind) ?? { n: 0, ms: 0, cpuMs: 0, maxMs: 0 };
  stages.set(kind, { n: s.n + 1, ms: s.ms + ms, cpuMs: s.cpuMs + cpu, maxMs: Math.max(s.maxMs, ms) });
}

/** Runs `steps`, timing it. @returns wall ms and CPU ms */
function timeSteps(steps: Iterable<unknown>): { ms: number; cpuMs: number; longestMs: number } {
  const t = performance.now();
  const c = cpuMs();
  let longestMs = 0;
  let last = t;
  for (const step of steps) {
    void step;
    const now = performance.now();
    longestMs = Math.max(longestMs, now - last);
    last = now;
  }
  return { ms: performance.now() - t, cpuMs: cpuMs() - c, longestMs: Math.max(longestMs, performance.now() - last) };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const folder = args[0];
  if (folder === undefined) throw new Error('usage: node scripts/profile-load.mjs <plugin folder> [--notes <vault folder>]');
  const notesAt = args.indexOf('--notes');
  const held: string[] = [];
  if (notesAt >= 0) {
    for (const [, text] of await vaultNotes(args[notesAt + 1] as string)) held.push(text);
    console.log(`holding ${held.length} notes' text; heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`);
  }
  const head = await fsp.readFile(nodePath.join(folder, 'search-index.json'), 'utf8');
  const saved = openIndex(head, (generation) => ({
    read: async (n, withBytes) => {
      const file = (kind: string): string => nodePath.join(folder, 'search-index.parts', `${generation}.${n}.${kind}`);
      try {
        const [text, bytes] = await Promise.all([
          fsp.readFile(file('part'), 'utf8'),
          withBytes ? fsp.readFile(file('bin')) : new Uint8Array(0),
        ]);
        return { text, bytes };
      } catch {
        return null;
      }
    },
    wait: (pending) => pending,
  }));
  if (saved === null) throw new Error(`${folder} holds no index head of this format`);
  const parse = new Map<string, Stage>();
  const work = new Map<string, Stage>();
  // Each value's parse (reading its part when it is the first of one) and the engine's work on it, until the engine asks for the next.
  async function* timed(lines: Iterator<EngineLine | null> | AsyncIterator<EngineLine | null>): AsyncGenerator<EngineLine | null> {
    for (;;) {
      const t0 = performance.now();
      const c0 = cpuMs();
      const next = await lines.next();
      const t1 = performance.now();
      const c1 = cpuMs();
      if (next.done === true) return;
      const kind = next.value === null ? 'M' : next.value.kind;
      add(parse, kind, t1 - t0, c1 - c0);
      yield next.value;
      add(work, kind, performance.now() - t1, cpuMs() - c1);
    }
  }
  const gc: { ms: number; at: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gc.push({ ms: e.duration, at: e.startTime });
  });
  observer.observe({ entryTypes: ['gc'] });
  const engine = new LexicalEngine();
  let longest = 0;
  let last = performance.now();
  const pause = async (): Promise<void> => {
    longest = Math.max(longest, performance.now() - last);
    await new Promise((resolve) => setImmediate(resolve));
    last = performance.now();
  };
  const t0 = performance.now();
  const c0 = cpuMs();
  const phrases = await engine.load(timed(saved.lines()), pause, true);
  const load = { ms: performance.now() - t0, cpuMs: cpuMs() - c0 };
  // What SearchIndex runs after a warm start's completeness, in its order: the block bounds, the phrase filters (their first line was yielded to the load, whose tail its engine time holds), the ranking steps; steps after the phrase filters run without pauses.
  const bounds = timeSteps(engine.boundSteps());
  const tp = performance.now();
  const cp = cpuMs();
  if (phrases !== null) await engine.loadPhrases({ ...phrases, rest: timed(phrases.rest) }, pause);
  const phraseLoad = { ms: performance.now() - tp, cpuMs: cpuMs() - cp };
  const trim = timeSteps(engine.packSteps());
  const ranking = timeSteps(engine.rankingSteps());
  await new Promise((resolve) => setTimeout(resolve, 10));
  observer.disconnect();
  const ms = (x: { ms: number; cpuMs: number }): string => `${x.ms.toFixed(0)} ms (${x.cpuMs.toFixed(0)} ms CPU)`;
  console.log(
    `${engine.size} notes; load ${ms(load)}, longest step ${longest.toFixed(0)} ms; pack steps ${ms(trim)}; ranking steps ${ms(ranking)}`,
  );
  console.log(
    `after completeness: block bounds ${ms(bounds)}, longest step ${bounds.longestMs.toFixed(0)} ms; phrase filters ${ms(phraseLoad)}`,
  );
  console.log('kind   lines   read+parse ms (CPU)   engine ms (CPU)   longest engine ms');
  for (const kind of ['M', 'R', 'D', 'T', 'P']) {
    const p = parse.get(kind);
    const w = work.get(kind);
    if (p === undefined || w === undefined) continue;
    console.log(
      `${kind.padEnd(6)} ${String(p.n).padStart(5)}   ${p.ms.toFixed(0).padStart(8)} (${p.cpuMs.toFixed(0)})   ${w.ms.toFixed(0).padStart(10)} (${w.cpuMs.toFixed(0)})   ${w.maxMs.toFixed(0).padStart(8)}`,
    );
  }
  const total = gc.filter((g) => g.at >= t0).reduce((sum, g) => sum + g.ms, 0);
  console.log(`gc pauses from the load on: ${gc.filter((g) => g.at >= t0).length}, ${total.toFixed(0)} ms; held notes ${held.length}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
