/**
 * `node scripts/profile-first.mjs [notes] [--cpu]`: the first pass of searches after an index
 * build, sample by sample (issue 20: the bench row's first pass is slower than its "search again"
 * line). Boots src/main cold on a generated vault (default 100k notes, the bench's cache) with the
 * index saved as the bench row does, takes the same full GC, then runs the bench's passes over
 * HTTP (the query mix × 5, the heavy queries × 5, then both again) and prints each query's first
 * run and the median of its later runs, wall and process CPU, and each pass's p50 / p95 as the
 * bench computes them, with the pass's slowest samples. Then one note is indexed again (a `modify` of its unchanged text: no
 * write to the shared vault) and the next search of each kind is timed: what an edit costs the
 * search after it. `--cpu` prints the functions with the most self time over the first pass, and
 * within each query's first run of it (with the garbage-collection pauses in that run).
 * `--during-build` searches once while the index builds (a client that comes early), with the
 * same key, before the passes.
 * `--v8=<flags>` sets V8 flags (e.g. `--v8=--trace-opt,--trace-deopt`, comma-separated) just
 * before the first pass, so a trace covers the passes and not the build; each call is then marked
 * (`=== query #run`) in the output.
 * `--client-process` times the passes as the bench row does, from build/search-client.cjs in a process of
 * its own (forked before the boot, connected after the build, `tools/list` first), the first pass and then
 * the same passes again; with `--cpu` this process (the server's) is profiled over each, and each pass's
 * server time is split by kind of work, within the calls' HTTP spans and between them, call by call
 * (profile-requests.ts), and the profile is saved in the temp folder with the calls' spans beside it;
 * `--client-cpu-prof` has the client process write its own (`--cpu-prof`, into the temp folder's
 * profile-first-client/). `--alloc` (with `--client-process`) samples what this process allocates over each
 * pass, those the collector took since included, and prints the functions that allocated the most. With `--v8=` flags, `=== first pass` and `=== again` mark the trace.
 * Prints figures; asserts nothing. Not part of `npm run bench`.
 */
import { promises as fsp } from 'node:fs';
import * as inspector from 'node:inspector';
import * as os from 'node:os';
import * as v8 from 'node:v8';
import * as nodePath from 'node:path';
import { performance } from 'node:perf_hooks';
import { provideObsidianModule } from '../obsidian-module';
import { bootPlugin, connectClient } from '../../test/harness/boot-plugin';
import { generateVault, generatedQueries, heavyQueries } from '../bench/generate-vault';
import { memoryMb, ms, percentiles } from '../bench/measure';
import { benchConfigDir } from '../bench/plugin-class';
import { overlapMs, watchSlices, type Slice } from './profile-background';
import { printAllocations, printWindow, watchGcPauses, type AllocationNode, type GcPause, type Profile } from './profile-summary';
import { bundleModules, printPass, sortSamples, watchRequests } from './profile-requests';
import { RemoteSearchClient } from '../bench/scaling/remote-client';
import VaultMcpPlugin from '../../src/main';

/** One timed call: wall and this process's CPU (user + system), ms; `start` its performance.now() at the call. */
interface Sample {
  wall: number;
  cpu: number;
  start: number;
}

interface SearchInternals {
  stats: { buildMs: number | null; longestSliceMs: number; saveMs: number | null; indexed: number };
  whenBuilt(): Promise<void>;
  applyChange(change: { type: 'modify'; path: string }, generation: number): Promise<void>;
  lifecycle: { generation: number };
  whenSaved(): Promise<void>;
}

function post<T>(session: inspector.Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res as T))));
}

async function timed(fn: () => Promise<unknown>): Promise<Sample> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await fn();
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000, start };
}

async function main(): Promise<void> {
  provideObsidianModule();
  const count = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 100_000);
  const cpuProfile = process.argv.includes('--cpu');
  const duringBuild = process.argv.includes('--during-build');
  // Forked before the boot, as the bench row does, so that its own start is over before the build.
  const clientFlags = process.argv.includes('--client-cpu-prof')
    ? ['--cpu-prof', `--cpu-prof-dir=${nodePath.join(os.tmpdir(), 'profile-first-client')}`]
    : [];
  const remote = process.argv.includes('--client-process')
    ? await RemoteSearchClient.start(nodePath.join(__dirname, 'search-client.cjs'), clientFlags)
    : null;
  const vault = await generateVault(nodePath.join(os.tmpdir(), 'vault-mcp-bench-generated'), count);
  const configDir = benchConfigDir();
  const configFolder = nodePath.join(vault.path, configDir);
  await fsp.rm(configFolder, { recursive: true, force: true });
  try {
    const booted = await bootPlugin(VaultMcpPlugin, { vaultPath: vault.path, waitForIndex: false, persistIndex: true, configDir });
    const search = (booted.plugin as unknown as { search: SearchInternals }).search;
    const background = watchSlices();
    const pauses = watchGcPauses();
    if (duringBuild) {
      const early = await connectClient(booted.url, booted.token);
      const s = await timed(() => early.callTool({ name: 'search', arguments: { query: generatedQueries()[0] } }));
      console.log(`a search during the build: ${ms(s.wall)} / ${ms(s.cpu)} ms (${search.stats.indexed} notes indexed)`);
      await early.close();
    }
    await search.whenBuilt();
    const built = performance.now();
    console.log(
      `${vault.notes} notes; cold build ${((search.stats.buildMs ?? 0) / 1000).toFixed(1)} s, longest slice ${ms(search.stats.longestSliceMs)} ms; load ${os.loadavg()[0].toFixed(1)}`,
    );
    memoryMb();
    if (remote !== null) {
      background.stop();
      pauses.stop();
      await clientProcessPasses(remote, booted.url, booted.token, cpuProfile, () => (search.stats.saveMs === null ? 'running' : 'ended'));
      while (search.stats.saveMs === null) await new Promise((resolve) => setTimeout(resolve, 100));
      await booted.stop();
      await search.whenSaved();
      return;
    }
    const client = await connectClient(booted.url, booted.token);
    const call = (query: string): Promise<unknown> => client.callTool({ name: 'search', arguments: { query } });
    // With V8 flags set (a trace), each call is marked in the output.
    let marked = false;
    const pass = async (list: string[]): Promise<Sample[][]> => {
      const out: Sample[][] = [];
      for (const query of list) {
        const runs: Sample[] = [];
        for (let i = 0; i < 5; i++) {
          if (marked) console.log(`=== ${query} #${i + 1}`);
          runs.push(await timed(() => call(query)));
        }
        out.push(runs);
      }
      return out;
    };
    const session = new inspector.Session();
    const gc = cpuProfile ? pauses : null;
    if (cpuProfile) {
      session.connect();
      await post(session, 'Profiler.enable');
      await post(session, 'Profiler.setSamplingInterval', { interval: 200 });
      await post(session, 'Profiler.start');
    }
    const flags = process.argv.find((a) => a.startsWith('--v8='));
    if (flags !== undefined) {
      v8.setFlagsFromString(flags.slice('--v8='.length).split(',').join(' '));
      marked = true;
    }
    const firstStart = performance.now();
    const first = [await pass(generatedQueries()), await pass(heavyQueries())];
    const firstEnd = performance.now();
    if (cpuProfile) {
      const { profile } = await post<{ profile: Profile }>(session, 'Profiler.stop');
      session.disconnect();
      printSelfTime(profile);
      generatedQueries().forEach((query, q) => {
        const run = first[0][q][0];
        const end = run.start + run.wall;
        const inRun = (gc?.pauses ?? []).filter((p) => p.start >= run.start && p.start < end);
        const paused = inRun.reduce((a, p) => a + p.ms, 0);
        const title = `self time in the first run of ${query} (${ms(run.wall)} ms wall; ${inRun.length} GC pauses, ${ms(paused)} ms)`;
        printWindow(profile, run.start, end, title);
      });
    }
    printBackground(background.slices, pauses.pauses, built, firstStart, firstEnd, first[0], generatedQueries());
    console.log(`the cold save ${search.stats.saveMs === null ? 'was still running' : 'had ended'} when the first pass ended`);
    const second = [await pass(generatedQueries()), await pass(heavyQueries())];
    background.stop();
    pauses.stop();
    const lists = [generatedQueries(), heavyQueries()];
    console.log('\nquery                           first run wall / CPU ms   later 4 median wall / CPU   second pass median wall / CPU');
    lists.forEach((list, l) =>
      list.forEach((query, q) => {
        const runs = first[l][q];
        const later = median(runs.slice(1));
        const again = median(second[l][q]);
        console.log(
          `${query.padEnd(31)} ${ms(runs[0].wall).padStart(9)} / ${ms(runs[0].cpu).padStart(6)}   ${ms(later.wall).padStart(12)} / ${ms(later.cpu).padStart(6)}   ${ms(again.wall).padStart(13)} / ${ms(again.cpu).padStart(6)}`,
        );
      }),
    );
    for (const [name, passes] of [
      ['first pass', first],
      ['second pass', second],
    ] as const) {
      const p = percentiles(passes[0].flat().map((s) => s.wall));
      const h = percentiles(passes[1].flat().map((s) => s.wall));
      const cpu = [...passes[0].flat(), ...passes[1].flat()].reduce((a, s) => a + s.cpu, 0);
      console.log(
        `${name}: search p50 / p95 ${ms(p.p50)} / ${ms(p.p95)} ms, heavy ${ms(h.p50)} / ${ms(h.p95)} ms; CPU ${cpu.toFixed(0)} ms in all`,
      );
      console.log(`  its ${SLOWEST} slowest searches of the mix (the p95 is the 4th of 60): ${slowest(passes[0], generatedQueries())}`);
    }
    // One note indexed again (its text unchanged): the index version moves, as after any edit.
    const edited = booted.app.vault.getMarkdownFiles()[0].path;
    console.log(`\nafter ${edited} is indexed again (load ${os.loadavg()[0].toFixed(1)}):`);
    for (const query of [generatedQueries()[1], generatedQueries()[5], generatedQueries()[6], generatedQueries()[4]]) {
      await search.applyChange({ type: 'modify', path: edited }, search.lifecycle.generation);
      const s = await timed(() => call(query));
      const next = await timed(() => call(query));
      console.log(
        `  ${query.padEnd(29)} ${ms(s.wall).padStart(7)} / ${ms(s.cpu).padStart(6)} ms, the next run ${ms(next.wall)} / ${ms(next.cpu)} ms`,
      );
    }
    await client.close();
    // The saved index goes with the config folder: its saves (the cold one, the one the stop flushes after the edits) must have ended first.
    while (search.stats.saveMs === null) await new Promise((resolve) => setTimeout(resolve, 100));
    await booted.stop();
    await search.whenSaved();
  } finally {
    await remote?.close();
    await fsp.rm(configFolder, { recursive: true, force: true });
  }
}

/**
 * `--client-process`: the first pass and the same passes again, timed by `remote` (the client process),
 * with this process's CPU profile (`cpuProfile`), GC pauses, background slices and request spans over each;
 * `save` says whether the cold save is still running.
 */
async function clientProcessPasses(
  remote: RemoteSearchClient,
  url: string,
  token: string,
  cpuProfile: boolean,
  save: () => string,
): Promise<void> {
  const lists = [generatedQueries(), heavyQueries()];
  const labels = lists.flatMap((list) => list.flatMap((query) => [1, 2, 3, 4, 5].map((run) => `${query} #${run}`)));
  const moduleOf = bundleModules(__filename);
  const requests = watchRequests();
  const session = new inspector.Session();
  session.connect();
  await post(session, 'Profiler.enable');
  await post(session, 'Profiler.setSamplingInterval', { interval: 200 });
  const tools = await remote.connect(url, token);
  console.log(`client process connected, ${tools} tools listed (${requests.spans.map((r) => r.method).join(' ')})`);
  const flags = process.argv.find((a) => a.startsWith('--v8='));
  if (flags !== undefined) v8.setFlagsFromString(flags.slice('--v8='.length).split(',').join(' '));
  for (const name of ['first pass', 'again']) {
    if (flags !== undefined) console.log(`=== ${name}`);
    const from = requests.spans.length;
    const pauses = watchGcPauses();
    const background = watchSlices();
    if (cpuProfile) await post(session, 'Profiler.start');
    // Every allocation sampled (one per 16 KB on average), those the collector took since included: what a pass allocates, not what stays.
    const alloc = process.argv.includes('--alloc');
    if (alloc)
      await post(session, 'HeapProfiler.startSampling', {
        samplingInterval: 16384,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
    const cpu = process.cpuUsage();
    const [queries, heavy] = await remote.passes(lists, 5);
    const used = process.cpuUsage(cpu);
    const profile = cpuProfile ? (await post<{ profile: Profile }>(session, 'Profiler.stop')).profile : null;
    const allocations = alloc ? (await post<{ profile: { head: AllocationNode } }>(session, 'HeapProfiler.stopSampling')).profile : null;
    if (flags !== undefined) console.log(`=== end of ${name}`);
    background.stop();
    pauses.stop();
    await new Promise((resolve) => setTimeout(resolve, 10));
    const calls = requests.spans.slice(from).filter((r) => r.method === 'POST');
    const p = percentiles(queries);
    const h = percentiles(heavy);
    const start = calls[0]?.start ?? 0;
    const end = calls[calls.length - 1]?.end ?? 0;
    const gcs = pauses.pauses.filter((g) => g.start >= start && g.start <= end);
    const slices = background.slices.filter((b) => b.end > start && b.start < end);
    console.log(
      `\n${name} (load ${os.loadavg()[0].toFixed(1)}): search p50 / p95 ${ms(p.p50)} / ${ms(p.p95)} ms, heavy ${ms(h.p50)} / ${ms(h.p95)} ms at the client; ` +
        `this process's CPU ${ms((used.user + used.system) / 1000)} ms (all threads); GC pauses ${gcs.length}, ${ms(gcs.reduce((a, g) => a + g.ms, 0))} ms; ` +
        `background slices ${slices.length}, ${ms(overlapMs(slices, start, end))} ms (${[...new Set(slices.map((b) => b.who))].join(', ') || 'none'}); ` +
        `GC kinds ${[...new Set(gcs.map((g) => g.kind))].join(', ') || 'none'}; the cold save ${save()} at the pass's end`,
    );
    lists.forEach((list, l) =>
      list.forEach((query, q) =>
        console.log(
          `  ${query.padEnd(31)} ${(l === 0 ? queries : heavy)
            .slice(q * 5, q * 5 + 5)
            .map((wall) => ms(wall).padStart(6))
            .join(' ')} ms`,
        ),
      ),
    );
    if (allocations !== null) printAllocations(allocations.head, 30);
    if (calls.length !== labels.length) {
      console.log(`  ${calls.length} POST requests for ${labels.length} calls: not matched call by call`);
      continue;
    }
    if (profile === null) continue;
    // Kept for DevTools (its lines are the bundle's: build/profile-first.cjs).
    const file = nodePath.join(os.tmpdir(), `profile-first-${name.replace(' ', '-')}.cpuprofile`);
    await fsp.writeFile(file, JSON.stringify(profile));
    // The calls' server spans on the monotonic clock (ms), as a CPU profile's times are (µs), to lay them beside the client's profile.
    const offset = Number(process.hrtime.bigint()) / 1e6 - performance.now();
    await fsp.writeFile(file.replace(/\.cpuprofile$/, '.spans.json'), JSON.stringify(calls.map((c) => [c.start + offset, c.end + offset])));
    console.log(`  the profile: ${file}`);
    printPass(name, sortSamples(profile, moduleOf), calls, [...queries, ...heavy], labels);
  }
  requests.stop();
  session.disconnect();
}

/** How many of a pass's slowest samples are listed. */
const SLOWEST = 6;

/** The pass's SLOWEST slowest samples as "query #run wall/CPU ms" (run 1 is the query's first in the pass). */
function slowest(runsByQuery: Sample[][], queries: string[]): string {
  return runsByQuery
    .flatMap((runs, q) => runs.map((sample, run) => ({ sample, label: `${queries[q]} #${run + 1}` })))
    .sort((a, b) => b.sample.wall - a.sample.wall)
    .slice(0, SLOWEST)
    .map(({ sample, label }) => `${label} ${ms(sample.wall)}/${ms(sample.cpu)}`)
    .join(', ');
}

/**
 * Prints the background slices (profile-background.ts) around the first pass: by who ran them,
 * their count and ms before and during the pass (from the build's end), and how many ms of each
 * of the pass's slowest samples they and the collector's pauses covered.
 */
function printBackground(
  slices: Slice[],
  pauses: GcPause[],
  built: number,
  from: number,
  to: number,
  runsByQuery: Sample[][],
  queries: string[],
): void {
  const after = slices.filter((s) => s.end > built);
  const whos = [...new Set(after.map((s) => s.who))];
  const all = [...new Set(slices.map((s) => s.who))].map((who) => {
    const mine = slices.filter((s) => s.who === who);
    return `${who} ${mine.length} (${ms(overlapMs(mine, -Infinity, Infinity))} ms, the last ended ${ms(Math.max(...mine.map((s) => s.end)) - built)} ms after whenBuilt)`;
  });
  console.log(`\nbackground slices since the boot: ${all.join(', ') || 'none'}`);
  console.log(`background slices after the build ended (the first pass began ${ms(from - built)} ms after it, ran ${ms(to - from)} ms):`);
  for (const who of whos) {
    const mine = after.filter((s) => s.who === who);
    const during = mine.filter((s) => s.end > from && s.start < to);
    console.log(
      `  ${who.padEnd(9)} ${mine.length} slices, ${ms(overlapMs(mine, built, Infinity))} ms; during the pass ${during.length}, ${ms(overlapMs(mine, from, to))} ms; ` +
        `last ended ${ms(Math.max(...mine.map((s) => s.end)) - from)} ms after the pass began`,
    );
  }
  const gcIn = (a: number, b: number): GcPause[] => pauses.filter((p) => p.start < b && p.start + p.ms > a);
  const gcPass = gcIn(from, to);
  console.log(`  GC pauses during the pass: ${gcPass.length}, ${ms(gcPass.reduce((a, p) => a + p.ms, 0))} ms`);
  const samples = runsByQuery
    .flatMap((runs, q) => runs.map((sample, run) => ({ sample, label: `${queries[q]} #${run + 1}` })))
    .sort((a, b) => b.sample.wall - a.sample.wall)
    .slice(0, SLOWEST);
  for (const { sample, label } of samples) {
    const end = sample.start + sample.wall;
    const parts = whos.map((who) => `${who} ${ms(overlapMs(after, sample.start, end, who))}`).join(', ');
    const gcs = gcIn(sample.start, end);
    const gcText = gcs.map((p) => `${p.kind} ${ms(p.ms)}`).join(' + ') || 'none';
    console.log(`  ${label.padEnd(22)} ${ms(sample.wall).padStart(6)} ms wall: background ${parts || 'none'}; GC ${gcText}`);
  }
}

/** The sample of median wall time. */
function median(samples: Sample[]): Sample {
  return [...samples].sort((a, b) => a.wall - b.wall)[Math.floor((samples.length - 1) / 2)];
}

/** The 25 functions with the most self time in `profile`, ms. */
function printSelfTime(profile: Profile): void {
  const self = new Map<string, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  profile.samples.forEach((id, i) => {
    const f = byId.get(id)?.callFrame;
    if (f === undefined) return;
    const name = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-1).join('/')}:${f.lineNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const all = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`\nCPU profile of the first pass: ${all.toFixed(0)} ms sampled; top self time:`);
  for (const [name, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`  ${t.toFixed(0).padStart(6)} ms ${((100 * t) / all).toFixed(1).padStart(5)} %  ${name}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
