/**
 * Prints the search-quality tables of one labelled set: one row per ranking, one column per
 * question class, `hit@5 / MRR@10` in each cell; for all questions, the tuning half and the
 * held-out half (retrieval-metrics.ts, Split); then, per hybrid row, whether hybrid is at
 * least as good as its better half (lexical or that source's semantic: the two rankings it
 * fuses; lexical-any is a reference row, the words ORed as a filter, not part of hybrid) in each class.
 */
import type { Log } from '../measure';
import { cell, classesOf, qualityByClass, type QualityFigures, type Question, type Split } from './retrieval-metrics';

/** One ranking's result paths per question (`ranked[i]` answers question i). */
export interface RankingRow {
  label: string;
  ranked: string[][];
  /** Set on a semantic row: the embedding source it measures. */
  half?: string;
  /** Set on a row hybrid does not fuse (lexical-any): never a better half. */
  reference?: boolean;
  /** Set on a hybrid row: the embedding source whose semantic half it fuses. */
  hybridOf?: string;
}

const SPLITS: Array<[Split, string]> = [
  ['all', 'all questions'],
  ['tuning', "tuning half (every class's 2nd, 4th, … question; fusion is chosen on these)"],
  ['held-out', "held-out half (every class's 1st, 3rd, … question; never tuned on)"],
];

/** Prints the tables of one set (see the file's comment). */
export function printQualityTables(
  name: string,
  file: string,
  questions: readonly Question[],
  rows: readonly RankingRow[],
  log: Log,
): void {
  const classes = classesOf(questions);
  const width = 22;
  const figures = new Map<string, Map<Split, Map<string, QualityFigures>>>();
  for (const row of rows) {
    const runs = questions.map((q, i) => ({ answers: q.answers, ranked: row.ranked[i] }));
    figures.set(row.label, new Map(SPLITS.map(([split]) => [split, qualityByClass(questions, runs, split)])));
  }
  log(`\n${name}: ${questions.length} labelled questions (scripts/bench/quality/${file}), hit@5 / MRR@10`);
  for (const [split, title] of SPLITS) {
    const sample = figures.get(rows[0].label)!.get(split)!;
    log(`  ${title}`);
    log(`    ${'ranking'.padEnd(20)}${classes.map((c) => `${c} (n=${sample.get(c)!.n})`.padStart(width)).join('')}`);
    for (const row of rows)
      log(`    ${row.label.padEnd(20)}${classes.map((c) => cell(figures.get(row.label)!.get(split)!.get(c)!).padStart(width)).join('')}`);
  }
  for (const row of rows.filter((r) => r.hybridOf !== undefined)) {
    const halves = rows.filter(
      (r) => r.hybridOf === undefined && r.reference !== true && (r.half === undefined || r.half === row.hybridOf),
    );
    for (const split of ['held-out', 'all'] as const) {
      const verdicts = classes.map((c) => {
        const mine = figures.get(row.label)!.get(split)!.get(c)!;
        const best = (pick: (f: QualityFigures) => number): number =>
          Math.max(...halves.map((h) => pick(figures.get(h.label)!.get(split)!.get(c)!)));
        const hit = mine.hitAt5 >= best((f) => f.hitAt5) - 1e-9;
        const mrr = mine.mrrAt10 >= best((f) => f.mrrAt10) - 1e-9;
        return `${c} ${hit && mrr ? 'yes' : `no (${!hit ? `hit@5 ${mine.hitAt5.toFixed(3)} < ${best((f) => f.hitAt5).toFixed(3)}` : ''}${!hit && !mrr ? ', ' : ''}${!mrr ? `MRR ${mine.mrrAt10.toFixed(3)} < ${best((f) => f.mrrAt10).toFixed(3)}` : ''})`}`;
      });
      log(`  ${row.label} ≥ its better half, ${split}: ${verdicts.join('; ')}`);
    }
  }
}
