/**
 * Issue 20's targets for the scaling table and the verdict of a measured row against them:
 * at 100k notes search p50 ≤ 10 ms and p95 ≤ 50 ms (the query mix, and apart the heavy
 * queries), the plugin's memory ≤ 300 MB above the host's own, cold index ≤ 20 s with no
 * build slice over 50 ms, warm start ≤ 3 s (its slices held to the same 50 ms); on the 14k
 * vault the figures at filing, no worse: search p50 6.0 ms, cold index 3.6 s, warm start 1.2 s.
 * The verdicts are computed from the measured figures; nothing here knows a result.
 */
import type { ScalingRow, TargetSet } from './scaling-measure';

/** The figures of a row that a target can bound (all "at most"; ms or MB as in ScalingRow). */
export const TARGET_FIGURES = [
  'searchP50',
  'searchP95',
  'heavyP50',
  'heavyP95',
  'pluginMb',
  'indexMs',
  'longestSliceMs',
  'warmMs',
  'warmSliceMs',
] as const;
export type TargetFigure = (typeof TARGET_FIGURES)[number];

/** Upper bounds per figure, in the row's own unit (ms, MB). */
export type Bounds = Partial<Record<TargetFigure, number>>;

/** Issue 20's targets at 100k notes. */
export const TARGETS_AT_100K: Bounds = {
  searchP50: 10,
  searchP95: 50,
  heavyP50: 10,
  heavyP95: 50,
  pluginMb: 300,
  indexMs: 20_000,
  longestSliceMs: 50,
  warmMs: 3_000,
  warmSliceMs: 50,
};

/** The 14k vault's figures when issue 20 was filed ("14k figures no worse than today"). */
export const FIGURES_AT_FILING: Bounds = { searchP50: 6.0, indexMs: 3_600, warmMs: 1_200 };

/** The bounds a row is held to; an empty set for a row with none. */
export function boundsOf(targets: TargetSet): Bounds {
  if (targets === 'at-100k') return TARGETS_AT_100K;
  if (targets === 'at-filing') return FIGURES_AT_FILING;
  return {};
}

/** One figure of a row against its bound: met when measured and at most the bound; null when the figure was not measured (NaN). */
export interface Verdict {
  figure: TargetFigure;
  value: number;
  bound: number;
  met: boolean | null;
}

/** The verdict of every figure of `row` that its target set bounds, in TARGET_FIGURES order. */
export function verdicts(row: ScalingRow): Verdict[] {
  const bounds = boundsOf(row.targets);
  const out: Verdict[] = [];
  for (const figure of TARGET_FIGURES) {
    const bound = bounds[figure];
    if (bound === undefined) continue;
    const value = row[figure];
    out.push({ figure, value, bound, met: Number.isFinite(value) ? value <= bound : null });
  }
  return out;
}
