/**
 * The scaling table's printed lines: its header, one line per measured row, and the table of
 * issue 20's targets beside each row's figures, marked met or not (scaling-targets.ts).
 */
import { ms } from '../measure';
import type { ScalingRow, TargetSet } from './scaling-measure';
import { boundsOf, TARGET_FIGURES, verdicts, type TargetFigure } from './scaling-targets';

/** The header of the figures table (the columns of formatScalingRow). */
export const SCALING_HEADER =
  '  vault              notes   text MB   index s   slice ms   loop ms   warm s   warm slice ms   heap MB   arrays MB   plugin MB   search p50 / p95 ms   heavy p50 / p95 ms';

/** One row of the figures table, aligned under SCALING_HEADER; NaN prints as "NaN" (not measured). */
export function formatScalingRow(row: ScalingRow): string {
  return (
    `  ${row.label.padEnd(16)} ${String(row.notes).padStart(7)} ${row.textMb.toFixed(1).padStart(9)} ${(row.indexMs / 1000).toFixed(1).padStart(9)} ${ms(row.longestSliceMs).padStart(10)} ` +
    `${ms(row.loopDelayMs).padStart(9)} ${(row.warmMs / 1000).toFixed(1).padStart(8)} ${ms(row.warmSliceMs).padStart(15)} ${row.heapAfterMb.toFixed(0).padStart(9)} ` +
    `${row.arraysAfterMb.toFixed(0).padStart(11)} ${row.pluginMb.toFixed(0).padStart(11)} ${`${ms(row.searchP50)} / ${ms(row.searchP95)}`.padStart(21)} ${`${ms(row.heavyP50)} / ${ms(row.heavyP95)}`.padStart(20)}`
  );
}

/** Column of the targets table per figure: header, and how a value in the row's unit (ms, MB) prints. */
const COLUMNS: Record<TargetFigure, { header: string; show(value: number): string }> = {
  searchP50: { header: 'search p50 ms', show: ms },
  searchP95: { header: 'search p95 ms', show: ms },
  heavyP50: { header: 'heavy p50 ms', show: ms },
  heavyP95: { header: 'heavy p95 ms', show: ms },
  pluginMb: { header: 'plugin MB', show: (v) => v.toFixed(0) },
  indexMs: { header: 'cold index s', show: (v) => (v / 1000).toFixed(1) },
  longestSliceMs: { header: 'cold slice ms', show: ms },
  warmMs: { header: 'warm start s', show: (v) => (v / 1000).toFixed(1) },
  warmSliceMs: { header: 'warm slice ms', show: ms },
};

/** What each target set's line is called in the targets table. */
const TARGET_LINE: Record<Exclude<TargetSet, null>, string> = {
  'at-100k': 'target at 100k',
  'at-filing': '14k at filing',
};

const LABEL_WIDTH = 18;

/** A cell: right-aligned to its column's header. */
function cell(figure: TargetFigure, text: string): string {
  return text.padStart(COLUMNS[figure].header.length);
}

/**
 * The targets table for the rows that have a target set (none when no row has one): per
 * target set a line of its bounds, then each of its rows with every figure, marked ✓ (met),
 * ✗ (not met) or ? (not measured) where the set bounds it, and a count of the targets met.
 */
export function targetLines(rows: ScalingRow[]): string[] {
  const held = rows.filter((row) => row.targets !== null);
  if (held.length === 0) return [];
  const out = [
    '',
    "  issue 20's targets beside the figures above (✓ met, ✗ not met, ? not measured; a figure without a mark has no target in its set):",
    `  ${''.padEnd(LABEL_WIDTH)} ${TARGET_FIGURES.map((f) => COLUMNS[f].header).join('   ')}   met`,
  ];
  for (const set of ['at-100k', 'at-filing'] as const) {
    const ofSet = held.filter((row) => row.targets === set);
    if (ofSet.length === 0) continue;
    const bounds = boundsOf(set);
    const boundCells = TARGET_FIGURES.map((f) => {
      const bound = bounds[f];
      return cell(f, bound === undefined ? '—' : `≤ ${COLUMNS[f].show(bound)}  `);
    });
    out.push(`  ${TARGET_LINE[set].padEnd(LABEL_WIDTH)} ${boundCells.join('   ')}`.trimEnd());
    for (const row of ofSet) {
      const marks = new Map(verdicts(row).map((v) => [v.figure, v.met === null ? '?' : v.met ? '✓' : '✗']));
      const cells = TARGET_FIGURES.map((f) => cell(f, `${COLUMNS[f].show(row[f])} ${marks.get(f) ?? ' '}`));
      const all = verdicts(row);
      const met = all.filter((v) => v.met === true).length;
      out.push(`  ${row.label.padEnd(LABEL_WIDTH)} ${cells.join('   ')}   ${met} of ${all.length}`);
    }
  }
  return out;
}
