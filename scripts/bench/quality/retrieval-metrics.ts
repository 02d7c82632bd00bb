/**
 * Retrieval quality of ranked results against labelled questions: hit@5 (an answer in the top 5)
 * and MRR@10 (reciprocal rank of the first answer in the top 10, 0 when none), per question
 * class and per split of the questions.
 */

/** One labelled question: its text, every note that answers it, and its class. */
export interface Question {
  q: string;
  answers: string[];
  class: string;
}

/** A question's answers and the paths a ranking returned for it, best first. */
export interface Run {
  answers: readonly string[];
  ranked: readonly string[];
}

/** Figures of one ranking over a set of questions. */
export interface QualityFigures {
  /** Share of questions with any listed answer in the top 5, 0…1. */
  hitAt5: number;
  /** Mean reciprocal rank of the first listed answer in the top 10 (0 when none), 0…1. */
  mrrAt10: number;
  /** Questions counted. */
  n: number;
}

/**
 * hit@5 and MRR@10 of `runs` (any listed answer counts: a cmdlet in several version folders is
 * found by any of its notes).
 * @returns zeros with n = 0 for no runs
 * @throws Error when a run has no answers (a labelling mistake)
 */
export function quality(runs: readonly Run[]): QualityFigures {
  let hits = 0;
  let rr = 0;
  for (const { answers, ranked } of runs) {
    if (answers.length === 0) throw new Error('quality: a question has no answers; every labelled question lists at least one note');
    const first = ranked.slice(0, 10).findIndex((p) => answers.includes(p));
    if (first >= 0 && first < 5) hits++;
    rr += first < 0 ? 0 : 1 / (first + 1);
  }
  return runs.length === 0 ? { hitAt5: 0, mrrAt10: 0, n: 0 } : { hitAt5: hits / runs.length, mrrAt10: rr / runs.length, n: runs.length };
}

/**
 * Which questions a figure covers: all, the tuning half or the held-out half. The halves
 * alternate within each class in file order (a class's 2nd, 4th, … question is tuning; its
 * 1st, 3rd, … held out), so both halves hold every class.
 */
export type Split = 'all' | 'tuning' | 'held-out';

/** The half each question belongs to (see {@link Split}), in file order. */
export function halves(questions: readonly Question[]): Array<'tuning' | 'held-out'> {
  const seen = new Map<string, number>();
  return questions.map((q) => {
    const n = seen.get(q.class) ?? 0;
    seen.set(q.class, n + 1);
    return n % 2 === 1 ? 'tuning' : 'held-out';
  });
}

/** The classes of a set in first-appearance order, after `all`. */
export function classesOf(questions: readonly Question[]): string[] {
  return ['all', ...new Set(questions.map((q) => q.class))];
}

/** Figures per class (`all` included) of the runs whose question is in `split`; `runs[i]` answers `questions[i]`. */
export function qualityByClass(questions: readonly Question[], runs: readonly Run[], split: Split): Map<string, QualityFigures> {
  const half = halves(questions);
  const out = new Map<string, QualityFigures>();
  for (const cls of classesOf(questions)) {
    out.set(cls, quality(runs.filter((_, i) => (split === 'all' || half[i] === split) && (cls === 'all' || questions[i].class === cls))));
  }
  return out;
}

/** A table cell: `hit@5 / MRR@10` with two decimals. */
export function cell(f: QualityFigures): string {
  return `${f.hitAt5.toFixed(2)} / ${f.mrrAt10.toFixed(2)}`;
}
