/**
 * `node scripts/profile-cold.mjs [notes | x7 | large] [--cpu] [--alloc] [--gc]`: where a cold index build's main-thread time
 * goes on a generated vault (default 100k notes, reused from the bench's cache), or with `x7` on the
 * bench's seven copies of the PowerShell vault (made by a `--rows powershell-x7` bench run), or with `large` on the
 * bench's 14k PowerShell vault, step by step.
 * Boots src/main in the host with the index saved under the vault's `.obsidian-profile-cold`
 * config folder (removed before and after), in a process with the bench row's heap limit
 * (the .mjs wrapper starts one), and follows the build, the cold save and the ranking steps after
 * it to their ends. Every step between two pauses of a Slicer is named by the engine or vault
 * method it ran (the note loop, the trim's posting lists and block bounds, each ranking step,
 * the save's lines; else the slicer's owner), and the script prints: wall time by step
 * name (the process's CPU is read per slice only: read per step it was a tenth of the run),
 * each slice of 50 ms or more with its CPU, its steps and the garbage collections in it, each
 * event-loop stall of 50 ms or more (a timer firing that late) with the slices and collections
 * it overlapped, and the collections by kind. With --cpu, a CPU profile (sampled every 0.5 ms)
 * adds the functions with the most self time in the longest slices, and overall; with --alloc, a
 * sampling heap profile (collected objects included) adds the functions that allocated the most; with --gc
 * (profile-cold.mjs runs this with V8's --trace-gc and --trace-incremental-marking) the wrapper lists,
 * for each long slice, the scavenges, the major collections' finalizations and the incremental
 * marking steps the main thread ran in it, from V8's own trace. Prints figures;
 * asserts nothing. Not part of `npm run bench` (minutes at 100k notes).
 */
import { promises as fsp } from 'node:fs';
import * as inspector from 'node:inspector';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { performance } from 'node:perf_hooks';
import { provideObsidianModule } from '../obsidian-module';
import { bootPlugin } from '../../test/harness/boot-plugin';
import { generateVault } from '../bench/generate-vault';
import { unpackLargeVault } from '../bench/large-vault';
import { printAllocations, printProfile, printWindow, watchGcPauses, type AllocationNode, type Profile } from './profile-summary';
import { sevenCopies } from './profile-vaults';
import VaultMcpPlugin from '../../src/main';
import { Slicer } from '../../src/search/engine/slicer';
import { SearchIndex } from '../../src/search/search-index';
import { LexicalEngine } from '../../src/search/engine/lexical-engine';
import { TermIndex } from '../../src/search/engine/term-index';
import { PostingLists } from '../../src/search/engine/postings/posting-lists';
import { DocTermLists } from '../../src/search/engine/postings/doc-term-lists';
import { PhraseFilters } from '../../src/search/engine/filters/phrase-filter';
import { StemGroups } from '../../src/search/engine/text/stemming';
import { TitleStemTable } from '../../src/search/engine/ranked/title-stems';
import { PathRanks } from '../../src/search/engine/filters/path-ranks';
import { TermDictionary } from '../../src/search/engine/postings/term-dictionary';
import { TagDocTable } from '../../src/search/engine/filters/tag-docs';
import { NoteStore } from '../../src/vault/note-store';
import { NotePolicy } from '../../src/vault/note-policy';
import { IndexLifecycle } from '../../src/search/index-lifecycle';

const CONFIG_DIR = '.obsidian-profile-cold';
/** Slices and event-loop stalls at least this long are listed, ms (issue 20's bound on a slice). */
const LONG_MS = 50;
/** The stall timer's period, ms. */
const TICK_MS = 5;

/** The name of the step running now (set by the wrapped methods; null: the slicer's owner's). */
let current: string | null = null;

type Methods = Record<string, (...args: unknown[]) => unknown>;

/** Names each call of `proto[method]` `name` (the outermost wrapped call's name stands when it returns). */
function nameCalls(proto: object, method: string, name: string): void {
  const p = proto as Methods;
  const run = p[method];
  p[method] = function (this: unknown, ...args: unknown[]) {
    current = name;
    const out = run.apply(this, args);
    current = name;
    return out;
  };
}

/** Names each step (`next()`) of the generator `proto[method]` returns `name`. */
function nameSteps(proto: object, method: string, name: string): void {
  const p = proto as Methods;
  const run = p[method];
  p[method] = function* (this: unknown, ...args: unknown[]) {
    const it = run.apply(this, args) as Iterator<unknown>;
    for (;;) {
      current = name;
      const r = it.next();
      current = name;
      if (r.done === true) return r.value;
      yield r.value;
    }
  };
}

/** One slice: its owner (which work's slicer), wall span, the process's CPU (all threads) in it, and its steps' wall time by name. */
interface Slice {
  owner: string;
  start: number;
  end: number;
  /** CPU at the slice's start, then (once ended) the CPU from its start to its last step's end. */
  cpuMs: number;
  steps: Map<string, { n: number; ms: number; longest: number }>;
}

/** Every slice and the time by step name, from patching Slicer's pause, mark and restart. */
function watchSlices(): { slices: Slice[]; byName: Map<string, { ms: number; n: number }>; restore(): void } {
  const slices: Slice[] = [];
  const byName = new Map<string, { ms: number; n: number }>();
  const proto = Slicer.prototype as unknown as { pause(): Promise<void>; mark(): void; restart(): void };
  const { pause, mark, restart } = proto;
  const state = new WeakMap<Slicer, { owner: string; slice: Slice | null; stepAt: number; cpuAt: number }>();
  const ownerOf = (): string => {
    const stack = new Error().stack ?? '';
    for (const [fn, owner] of [
      ['timedParts', 'save'],
      ['writeIndex', 'save'],
      ['rankAhead', 'ranking steps'],
      ['loadPhrasesAfter', 'phrase load'],
      ['build', 'build'],
    ])
      if (stack.includes(fn)) return owner;
    return 'other';
  };
  const cpuNow = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const of = (slicer: Slicer): { owner: string; slice: Slice | null; stepAt: number; cpuAt: number } => {
    let s = state.get(slicer);
    if (s === undefined) {
      s = { owner: ownerOf(), slice: null, stepAt: performance.now(), cpuAt: 0 };
      state.set(slicer, s);
    }
    return s;
  };
  const begin = (s: ReturnType<typeof of>): void => {
    s.stepAt = performance.now();
    s.slice = { owner: s.owner, start: s.stepAt, end: s.stepAt, cpuMs: cpuNow(), steps: new Map() };
    current = null;
  };
  const step = (s: ReturnType<typeof of>): void => {
    const now = performance.now();
    const name = current ?? s.owner;
    const ms = now - s.stepAt;
    const total = byName.get(name) ?? { ms: 0, n: 0 };
    byName.set(name, { ms: total.ms + ms, n: total.n + 1 });
    if (s.slice !== null) {
      const st = s.slice.steps.get(name) ?? { n: 0, ms: 0, longest: 0 };
      s.slice.steps.set(name, { n: st.n + 1, ms: st.ms + ms, longest: Math.max(st.longest, ms) });
    }
    s.stepAt = now;
    current = null;
  };
  const end = (s: ReturnType<typeof of>): void => {
    if (s.slice === null) return;
    s.slice.end = s.stepAt;
    s.slice.cpuMs = s.cpuAt - s.slice.cpuMs;
    slices.push(s.slice);
    s.slice = null;
  };
  proto.pause = async function (this: Slicer) {
    const s = of(this);
    if (s.slice === null) begin(s);
    else step(s);
    const inner = this as unknown as { sliceStart: number; steps: number; maxSteps: number };
    // The slice ends here when the pause yields: its CPU is read before the yield (other work runs during it), and only then (a read per step was a tenth of the run).
    if (this.due() || inner.steps >= inner.maxSteps) s.cpuAt = cpuNow();
    const started = inner.sliceStart;
    await pause.call(this);
    // The slicer starts a new slice after it has yielded.
    if (inner.sliceStart !== started) {
      end(s);
      begin(s);
    }
  };
  proto.mark = function (this: Slicer) {
    const s = of(this);
    if (s.slice !== null) {
      step(s);
      s.cpuAt = cpuNow();
      end(s);
    }
    mark.call(this);
  };
  proto.restart = function (this: Slicer) {
    restart.call(this);
    begin(of(this));
  };
  // A sliced loop's last step ends with the loop, not at a pause: it is counted there.
  const lifecycle = IndexLifecycle.prototype as unknown as {
    sliced(items: unknown, slicer: Slicer, live: unknown): AsyncGenerator<unknown>;
  };
  const sliced = lifecycle.sliced;
  lifecycle.sliced = async function* (this: IndexLifecycle, items: unknown, slicer: Slicer, live: unknown) {
    yield* sliced.call(this, items, slicer, live);
    const s = of(slicer);
    if (s.slice !== null) {
      step(s);
      s.cpuAt = cpuNow();
      end(s);
    }
  };
  return {
    slices,
    byName,
    restore: () => {
      Object.assign(proto, { pause, mark, restart });
      lifecycle.sliced = sliced;
    },
  };
}

/** Names the steps of the build, the trim, the ranking steps and the save by the methods they run. */
function nameTheSteps(): void {
  nameCalls(NoteStore.prototype, 'markdownCount', 'scan: listing');
  nameCalls(NotePolicy.prototype, 'canRead', 'scan: access checks');
  nameCalls(SearchIndex.prototype, 'indexFile', 'note loop');
  nameSteps(PostingLists.prototype, 'trimSteps', 'trim: posting lists');
  nameCalls(DocTermLists.prototype, 'trim', 'trim: term lists');
  nameSteps(TermIndex.prototype, 'boundSteps', 'trim: block bounds');
  nameCalls(PhraseFilters.prototype, 'trim', 'trim: phrase filters');
  nameCalls(StemGroups.prototype, 'advance', 'ranking: stems');
  nameCalls(TitleStemTable.prototype, 'cover', 'ranking: titles');
  nameCalls(PathRanks.prototype, 'cover', 'ranking: path ranks');
  nameSteps(TermDictionary.prototype, 'sortSteps', 'ranking: dictionary sort');
  nameCalls(TagDocTable.prototype, 'cover', 'ranking: tags');
  nameSteps(LexicalEngine.prototype, 'savedSteps', 'save: engine lines');
  nameSteps(TermIndex.prototype, 'savedSteps', 'save: term and doc lines');
  nameSteps(PhraseFilters.prototype, 'savedLines', 'save: phrase filter lines');
}

/** Timer lateness of LONG_MS or more (ms, and when it ended: performance.now()). */
function watchStalls(): { stalls: { ms: number; end: number }[]; stop(): void } {
  const stalls: { ms: number; end: number }[] = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - last - TICK_MS >= LONG_MS) stalls.push({ ms: now - last - TICK_MS, end: now });
    last = now;
  }, TICK_MS);
  return { stalls, stop: () => clearInterval(timer) };
}

function post<T>(session: inspector.Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res as T))));
}

/** The bench's 14k-note PowerShell vault (unpacked into its cache); exits when the archive is absent. */
async function powerShellVault(): Promise<{ path: string }> {
  const path = await unpackLargeVault(nodePath.resolve('../shared/vaults/windows-powershell-docs.tar.zst'), console.log);
  if (path === null) process.exit(0);
  return { path };
}

async function main(): Promise<void> {
  provideObsidianModule();
  const args = process.argv.slice(2);
  const vault = args.includes('x7')
    ? sevenCopies()
    : args.includes('large')
      ? await powerShellVault()
      : await generateVault(nodePath.join(os.tmpdir(), 'vault-mcp-bench-generated'), Number(args.find((a) => /^\d+$/.test(a)) ?? 100_000));
  const configFolder = nodePath.join(vault.path, CONFIG_DIR);
  await fsp.rm(configFolder, { recursive: true, force: true });
  const cpu = args.includes('--cpu');
  const alloc = args.includes('--alloc');
  const session = cpu || alloc ? new inspector.Session() : null;
  if (session !== null) session.connect();
  if (session !== null && cpu) {
    await post(session, 'Profiler.enable');
    await post(session, 'Profiler.setSamplingInterval', { interval: 500 });
  }
  if (session !== null && alloc) await post(session, 'HeapProfiler.enable');
  nameTheSteps();
  const slices = watchSlices();
  const gc = watchGcPauses();
  const stalls = watchStalls();
  // From the index's start (after the host has loaded the vault): the ranking steps' run is kept to wait for it.
  const proto = SearchIndex.prototype as unknown as { start(): Promise<void>; rankAhead(...a: unknown[]): Promise<void> };
  const { start, rankAhead } = proto;
  let ranked: Promise<void> | null = null;
  let cpuAtStart = process.cpuUsage();
  let t0 = performance.now();
  proto.start = function (this: SearchIndex) {
    if (session !== null && cpu) session.post('Profiler.start');
    // Every allocation sampled (one per 32 KB on average), those the collector took since included: what the build allocates, not what stays.
    if (session !== null && alloc)
      session.post('HeapProfiler.startSampling', {
        samplingInterval: 32768,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
    cpuAtStart = process.cpuUsage();
    t0 = performance.now();
    return start.call(this);
  };
  proto.rankAhead = function (this: SearchIndex, ...a: unknown[]) {
    ranked = rankAhead.apply(this, a);
    return ranked;
  };
  const booted = await bootPlugin(VaultMcpPlugin, {
    vaultPath: vault.path,
    waitForIndex: false,
    persistIndex: true,
    configDir: CONFIG_DIR,
  });
  const index = (booted.plugin as unknown as { search: SearchIndex }).search;
  await index.whenBuilt();
  const built = { wall: performance.now() - t0, cpu: process.cpuUsage(cpuAtStart), stats: index.stats };
  await index.whenSaved();
  while (ranked === null) await new Promise((resolve) => setTimeout(resolve, 10));
  await ranked;
  const wall = performance.now() - t0;
  const used = process.cpuUsage(cpuAtStart);
  stalls.stop();
  gc.stop();
  Object.assign(proto, { start, rankAhead });
  slices.restore();
  const profile = session === null || !cpu ? null : (await post<{ profile: Profile }>(session, 'Profiler.stop')).profile;
  const allocations =
    session === null || !alloc ? null : (await post<{ profile: { head: AllocationNode } }>(session, 'HeapProfiler.stopSampling')).profile;
  session?.disconnect();
  const s = built.stats;
  const cpuMs = (u: NodeJS.CpuUsage): string => `${((u.user + u.system) / 1000).toFixed(0)} ms CPU`;
  console.log(
    `${s.total} notes; build ${(s.buildMs ?? NaN).toFixed(0)} ms, its longest slice (with the save's) ${s.longestSliceMs.toFixed(0)} ms; ` +
      `index start to built (the save included) ${built.wall.toFixed(0)} ms wall, ${cpuMs(built.cpu)}; ` +
      `to the save and the ranking steps done ${wall.toFixed(0)} ms wall, ${cpuMs(used)}`,
  );
  await new Promise((resolve) => setTimeout(resolve, 10));
  printReport(slices.slices, slices.byName, gc.pauses, stalls.stalls, t0);
  // For the wrapper's --gc join (profile-cold.mjs): the long slices and major pauses on performance.now()'s clock.
  if (args.includes('--gc'))
    console.log(
      `#gc-join ${JSON.stringify({
        t0,
        slices: slices.slices
          .filter((l) => l.end - l.start >= LONG_MS)
          .map((l) => ({
            start: l.start,
            end: l.end,
            owner: l.owner,
            steps: [...l.steps].sort((a, b) => b[1].ms - a[1].ms)[0]?.[0] ?? '',
          })),
        majors: gc.pauses.filter((p) => p.kind === 'major').map((p) => p.start + p.ms),
      })}`,
    );
  if (profile !== null) {
    for (const l of [...slices.slices].sort((a, b) => b.end - b.start - (a.end - a.start)).slice(0, 4))
      printWindow(
        profile,
        l.start,
        l.end,
        `self time in the ${(l.end - l.start).toFixed(0)} ms slice (${l.owner}) at ${((l.start - t0) / 1000).toFixed(1)} s`,
      );
    printProfile(profile, 25, 30);
  }
  if (allocations !== null) printAllocations(allocations.head);
  await booted.stop();
  await fsp.rm(configFolder, { recursive: true, force: true });
}

/** Prints the time by step name, the long slices and stalls with what was in them, and the collections by kind. */
function printReport(
  slices: Slice[],
  byName: Map<string, { ms: number; n: number }>,
  pauses: { kind: string; start: number; ms: number }[],
  stalls: { ms: number; end: number }[],
  t0: number,
): void {
  const at = (t: number): string => `${((t - t0) / 1000).toFixed(1)} s`;
  const gcIn = (from: number, to: number): string => {
    const inside = pauses.filter((p) => p.start < to && p.start + p.ms > from);
    return inside.length === 0 ? 'no gc' : inside.map((p) => `${p.kind} ${p.ms.toFixed(0)}`).join(', ');
  };
  console.log('\nmain-thread time in steps by name (wall ms, steps, longest slice holding one):');
  for (const [name, t] of [...byName].sort((a, b) => b[1].ms - a[1].ms)) {
    const longest = Math.max(0, ...slices.filter((l) => l.steps.has(name)).map((l) => l.end - l.start));
    console.log(`  ${name.padEnd(28)} ${t.ms.toFixed(0).padStart(7)} ${String(t.n).padStart(7)} ${longest.toFixed(0).padStart(6)}`);
  }
  const long = slices.filter((l) => l.end - l.start >= LONG_MS).sort((a, b) => b.end - b.start - (a.end - a.start));
  console.log(`\nslices: ${slices.length}; ≥ ${LONG_MS} ms: ${long.length}`);
  for (const l of long.slice(0, 16)) {
    const steps = [...l.steps]
      .sort((a, b) => b[1].ms - a[1].ms)
      .slice(0, 3)
      .map(([name, st]) => `${name} ${st.n}× ${st.ms.toFixed(0)} (longest ${st.longest.toFixed(0)})`)
      .join('; ');
    console.log(
      `  ${(l.end - l.start).toFixed(0).padStart(5)} ms (${l.cpuMs.toFixed(0).padStart(4)} CPU) at ${at(l.start)} ${l.owner}: ${steps}; ${gcIn(l.start, l.end)}`,
    );
  }
  console.log(`\nevent-loop stalls ≥ ${LONG_MS} ms after the index's start: ${stalls.filter((x) => x.end - x.ms >= t0).length}`);
  for (const st of stalls
    .filter((x) => x.end - x.ms >= t0)
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 12)) {
    const from = st.end - st.ms;
    const inside = slices.filter((l) => l.end > from && l.start < st.end);
    const work = inside.map((l) => `${l.owner} ${(Math.min(l.end, st.end) - Math.max(l.start, from)).toFixed(0)}`).join(', ');
    console.log(`  ${st.ms.toFixed(0).padStart(5)} ms at ${at(from)}: slices ${work || 'none'}; ${gcIn(from, st.end)}`);
  }
  const kinds = new Map<string, { n: number; ms: number; max: number }>();
  for (const p of pauses.filter((q) => q.start >= t0)) {
    const k = kinds.get(p.kind) ?? { n: 0, ms: 0, max: 0 };
    kinds.set(p.kind, { n: k.n + 1, ms: k.ms + p.ms, max: Math.max(k.max, p.ms) });
  }
  console.log(
    `\ngc pauses: ${[...kinds].map(([kind, k]) => `${kind} ${k.n} × (${k.ms.toFixed(0)} ms, longest ${k.max.toFixed(0)})`).join('; ')}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
