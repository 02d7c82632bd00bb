/**
 * Summaries of a V8 CPU profile (the inspector's `Profiler.stop`) for the profile scripts
 * (profile-warm.ts, profile-cold.ts): the functions with the most self time in a window, and
 * the top self and total time over the whole profile; and the garbage-collection pauses they
 * report. Prints; asserts nothing.
 */
import { PerformanceObserver } from 'node:perf_hooks';

/** A CPU profile as the inspector's `Profiler.stop` returns it (times in µs of the monotonic clock). */
export type Profile = {
  startTime: number;
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
};

/** A node's function as `name file:line`. */
function frameName(node: Profile['nodes'][number]): string {
  const f = node.callFrame;
  return `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
}

/**
 * Prints the functions with the most self time among the samples taken between `from` and `to`
 * (performance.now() ms of this process; the profile's times are µs of the monotonic clock, as
 * process.hrtime's).
 * @param title the line printed above them
 */
export function printWindow(profile: Profile, from: number, to: number, title: string): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const offset = Number(process.hrtime.bigint()) / 1e6 - performance.now();
  let at = profile.startTime / 1000 - offset;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    at += dt;
    if (at < from || at > to) return;
    const name = frameName(byId.get(id) as Profile['nodes'][number]);
    self.set(name, (self.get(name) ?? 0) + dt);
  });
  console.log(`\n${title}:`);
  for (const [k, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log(`  ${t.toFixed(0).padStart(6)} ms  ${k}`);
}

/** Prints the top `selfRows` functions by self time and `totalRows` by total (inclusive) time. */
export function printProfile(profile: Profile, selfRows = 30, totalRows = 40): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (id: number): string => frameName(byId.get(id) as Profile['nodes'][number]);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    self.set(name(id), (self.get(name(id)) ?? 0) + dt);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const n = name(at);
      if (seen.has(n)) continue;
      seen.add(n);
      total.set(n, (total.get(n) ?? 0) + dt);
    }
  });
  const all = [...self.values()].reduce((a, b) => a + b, 0);
  const show = (title: string, map: Map<string, number>, n: number): void => {
    console.log(`\n${title} (${all.toFixed(0)} ms sampled):`);
    for (const [k, t] of [...map].sort((a, b) => b[1] - a[1]).slice(0, n))
      console.log(`  ${t.toFixed(0).padStart(6)} ms ${((100 * t) / all).toFixed(1).padStart(5)} %  ${k}`);
  };
  show('top self time', self, selfRows);
  show('top total time', total, totalRows);
}

/** Names of V8's garbage-collection kinds as a PerformanceObserver's `gc` entries give them (`detail.kind`, perf_hooks.constants). */
export const GC_KINDS: Record<number, string> = { 1: 'minor', 4: 'major', 8: 'incremental', 16: 'weak callbacks' };

/** One garbage-collection pause: its kind ({@link GC_KINDS}), start and length (ms, performance.now). */
export type GcPause = { kind: string; start: number; ms: number };

/**
 * Records every garbage-collection pause from now on (perf_hooks' `gc` entries) into `pauses`.
 * @returns the growing list and `stop`, which disconnects a task later (entries arrive one task
 *   after the pause, so the last ones are still taken)
 */
export function watchGcPauses(): { pauses: GcPause[]; stop(): void } {
  const pauses: GcPause[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0;
      pauses.push({ kind: GC_KINDS[kind] ?? String(kind), start: e.startTime, ms: e.duration });
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return { pauses, stop: () => setTimeout(() => observer.disconnect(), 0) };
}

/** A node of a sampling heap profile (the inspector's `HeapProfiler.stopSampling`): bytes allocated by its function, called from its parent. */
export interface AllocationNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: AllocationNode[];
}

/**
 * Prints the functions that allocated the most (sampled bytes, by function), the top `rows`.
 * @param head the root of a sampling heap profile (`HeapProfiler.stopSampling`'s `profile.head`).
 */
export function printAllocations(head: AllocationNode, rows = 25): void {
  const bytes = new Map<string, number>();
  let all = 0;
  const walk = (node: AllocationNode): void => {
    const f = node.callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
    bytes.set(name, (bytes.get(name) ?? 0) + node.selfSize);
    all += node.selfSize;
    node.children.forEach(walk);
  };
  walk(head);
  console.log(`\nallocated, sampled (${(all / 1e6).toFixed(0)} MB in all), by function:`);
  for (const [name, n] of [...bytes].sort((a, b) => b[1] - a[1]).slice(0, rows))
    console.log(`  ${(n / 1e6).toFixed(1).padStart(8)} MB ${((100 * n) / all).toFixed(1).padStart(5)} %  ${name}`);
}
