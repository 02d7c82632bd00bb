/**
 * Small measuring helpers shared by the bench modules: percentiles of millisecond samples
 * (percentiles.ts, which needs no Node builtin, so a page can use it too), timed repetitions and
 * the V8 heap after a full GC.
 */
import { performance } from 'node:perf_hooks';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';

export { percentiles, type Percentiles } from './percentiles';

/** Runs `fn` `runs` times one after another and returns each run's wall time in ms. */
export async function timeRuns(fn: () => Promise<unknown>, runs: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    out.push(performance.now() - start);
  }
  return out;
}

/** Heap in use after a full GC, MB (10^6 bytes); the GC is reached through V8's flag, as `node --expose-gc` would. */
export function heapMb(): number {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed / 1e6;
}

/**
 * Memory after a full GC, MB (10^6 bytes): the JS heap in use, and the bytes of ArrayBuffers
 * (typed arrays' contents live outside the heap, so a heap figure alone misses an index
 * built of typed arrays).
 */
export function memoryMb(): { heap: number; arrays: number } {
  const heap = heapMb();
  return { heap, arrays: process.memoryUsage().arrayBuffers / 1e6 };
}

/** How long {@link settledMemoryMb} lets V8 free the ArrayBuffers a full GC found dead, ms. */
const ARRAY_SWEEP_MS = 100;

/**
 * {@link memoryMb} once the ArrayBuffers that are garbage have been freed: V8 frees their
 * contents on a background sweeper after a full GC returns, so `arrayBuffers` read at once can
 * still count them (at 100k notes, after the plugin's unload: 146–154 MB read at once, 6 MB
 * 100 ms later; docs/performance.md, session 18). A full GC, a wait of {@link ARRAY_SWEEP_MS},
 * then memoryMb. For a baseline that must not count what is already garbage (the host after
 * the plugin's unload); it leaves the event loop idle for that time.
 * @returns as memoryMb
 */
export async function settledMemoryMb(): Promise<{ heap: number; arrays: number }> {
  heapMb();
  await new Promise((resolve) => setTimeout(resolve, ARRAY_SWEEP_MS));
  return memoryMb();
}

/** A duration in ms for a table cell: one decimal below 100 ms, whole ms above. */
export function ms(value: number): string {
  return value < 100 ? value.toFixed(1) : value.toFixed(0);
}

/** Where the bench's lines go (console.log in `npm run bench`, a collector in tests). */
export type Log = (line: string) => void;
