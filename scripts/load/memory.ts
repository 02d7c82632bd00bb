/**
 * The memory part of `npm run test:load`: drives `totalCalls` tool calls in steps and samples
 * the server child's heap and RSS after a full GC between steps, then fits a line through the
 * samples (least squares) to report the growth per 10,000 calls.
 */
import { drive, type ToolCall } from './drive';
import type { ServerChild } from './server-child';

/** One sample: calls made so far, heap in use and RSS after GC (MB, 10^6 bytes). */
export interface MemorySample {
  calls: number;
  heapMb: number;
  rssMb: number;
}

/** The samples and the fitted growth of heap and RSS, MB per 10,000 calls (fitted from the end of the first, warm-up step on). */
export interface MemoryResult {
  samples: MemorySample[];
  heapSlope: number;
  rssSlope: number;
  failed: number;
}

/**
 * Runs `totalCalls` calls of `calls` over `sessions` sessions against `server` in `steps`
 * equal steps, sampling memory before the first and after every step.
 * @throws Error when `steps` is below 3 (a slope needs samples after the warm-up step).
 */
export async function measureMemory(
  server: ServerChild,
  calls: ToolCall[],
  totalCalls: number,
  steps: number,
  sessions: number,
): Promise<MemoryResult> {
  if (steps < 3) throw new Error('measureMemory: use at least 3 steps');
  const per = Math.ceil(totalCalls / steps);
  const sample = async (done: number): Promise<MemorySample> => {
    const m = await server.memory();
    return { calls: done, heapMb: m.heapUsed / 1e6, rssMb: m.rss / 1e6 };
  };
  const samples = [await sample(0)];
  let done = 0;
  let failed = 0;
  for (let step = 0; step < steps; step++) {
    const run = await drive(server.port, server.token, calls, { sessions, amount: per });
    done += run.calls;
    failed += run.failed;
    samples.push(await sample(done));
  }
  const fitted = samples.slice(1);
  return { samples, heapSlope: slope(fitted, (s) => s.heapMb), rssSlope: slope(fitted, (s) => s.rssMb), failed };
}

/** Least-squares slope of `value` over calls, per 10,000 calls. */
function slope(samples: MemorySample[], value: (s: MemorySample) => number): number {
  const n = samples.length;
  const mx = samples.reduce((sum, s) => sum + s.calls, 0) / n;
  const my = samples.reduce((sum, s) => sum + value(s), 0) / n;
  let num = 0;
  let den = 0;
  for (const s of samples) {
    num += (s.calls - mx) * (value(s) - my);
    den += (s.calls - mx) ** 2;
  }
  return den === 0 ? 0 : (num / den) * 10_000;
}
