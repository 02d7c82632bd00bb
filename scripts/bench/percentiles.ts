/**
 * Nearest-rank percentiles of millisecond samples, with no Node builtin: the bench's modules use it
 * through measure.ts, and the runtime probe (scripts/profile/runtime-probe.ts) in a Chromium page too.
 */

/** Percentiles of a set of samples (same unit as the samples, ms in this bench). */
export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
  count: number;
}

/**
 * Nearest-rank percentiles (p50, p95, p99) of `samples`.
 * @throws Error when `samples` is empty (a bench row with no sample is a bug in the bench).
 */
export function percentiles(samples: number[]): Percentiles {
  if (samples.length === 0) throw new Error('percentiles: no samples (the measured loop never ran)');
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), count: sorted.length };
}
