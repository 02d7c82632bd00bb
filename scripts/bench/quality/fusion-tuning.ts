/**
 * Chooses hybrid fusion parameters on the tuning half of the labelled questions (see
 * retrieval-metrics.ts, Split) and reports them on the held-out half (`--tune-fusion`). The
 * bench replays the fusion on the lists the tool returned (the lexical ranking and its hits
 * holding every word, semantic) in the order hybrid search fuses them (src/search/hybrid/candidates.ts), so
 * any parameters can be scored without a rebuild; the chosen ones go into HYBRID_FUSION by hand.
 *
 * Choice, on the tuning half only, in this order (the target is "hybrid never below its better
 * half", so safety comes before gain):
 * 1. hybrid is at least its better half (the best of lexical and semantic) in every class of
 *    every set, on hit@5 and MRR@10 (per set: a gain on one vault does not pay for a loss on
 *    the other);
 * 2. fewest questions whose first answer hybrid ranks below where its better half does on that
 *    question ({@link questionLosses}): few-question classes hide single losses, and a
 *    parameter set that loses none on the tuning half has less to lose on new questions;
 * 3. the highest {@link objective} with both sets' questions pooled per class.
 * The held-out figures are printed per set, as the tables show them. (Before this order, the
 * pooled objective alone chose RRF k=20 [0, 1, 1]: tuning 0.825, held-out 0.224, below its
 * better half in four held-out cells.)
 */
import { hybridLists } from '../../../src/search/hybrid/candidates';
import { fuse, HYBRID_FUSION, type FusionParams, type ScoredKey } from '../../../src/search/hybrid/fusion';
import type { Log } from '../measure';
import { cell, classesOf, halves, qualityByClass, type QualityFigures, type Question, type Split } from './retrieval-metrics';

/** One question's lists as the tool returned them: the lexical ranking, its hits holding every word, the words ORed (a row of the table, neither fused nor a half), semantic. */
export interface QuestionHalves {
  lexical: ScoredKey[];
  allTerms: ScoredKey[];
  any: ScoredKey[];
  semantic: ScoredKey[];
}

/** One labelled set's lists for one embedding source. */
export interface TuningRun {
  source: string;
  set: string;
  questions: Question[];
  lists: QuestionHalves[];
}

/** Weight of a shortfall below the better half against the mean figure. */
export const SHORTFALL_PENALTY = 2;

/** Ranked paths of hybrid search for each question with `params` (HYBRID_FUSION by default), as mode-search.ts fuses. */
export function replayHybrid(lists: readonly QuestionHalves[], params: FusionParams = HYBRID_FUSION): string[][] {
  return lists.map((l) => fuse(hybridLists(l.allTerms, l.lexical, l.semantic), params).map((e) => e.key));
}

/** Weights tried for each of the three lists (every word, the lexical ranking, meaning). */
const RANK_WEIGHTS = [
  [0, 0.5, 1, 2, 3],
  [0, 0.5, 1, 2],
  [0.25, 0.5, 1, 1.5, 2, 3, 4],
];

/**
 * The parameter grid: weighted RRF over k and a weight per list, and convex combinations (steps
 * of 0.1) of normalized scores. Two rules hold for every entry: the semantic list has a weight
 * (hybrid fuses both halves), and the two lexical lists together weigh at least as much as the
 * semantic one, so the note the lexical ranking puts first with every query word is never
 * outranked by a note only the semantic half found (an exact match is not buried by a fuzzy
 * model; without this rule the tuning half chose semantic-heavy weights that put a
 * semantic-only note above the demo vault's every-word match).
 */
export function fusionGrid(): FusionParams[] {
  const grid: FusionParams[] = [];
  for (const k of [2, 5, 10, 20, 40, 60, 100]) {
    for (const a of RANK_WEIGHTS[0])
      for (const b of RANK_WEIGHTS[1]) for (const c of RANK_WEIGHTS[2]) grid.push({ method: 'rank', k, weights: [a, b, c] });
  }
  for (const normalization of ['min-max', 'max', 'z'] as const) {
    for (let a = 0; a <= 9; a++)
      for (let b = 0; a + b <= 9; b++) grid.push({ method: 'score', normalization, weights: [a / 10, b / 10, (10 - a - b) / 10] });
  }
  return grid.filter((p) => p.weights[0] + p.weights[1] >= p.weights[2]);
}

/** Short text of a parameter set, as it would be written in HYBRID_FUSION. */
export function describeFusion(p: FusionParams): string {
  return p.method === 'rank'
    ? `rank k=${p.k} weights=[${p.weights.join(', ')}]`
    : `score ${p.normalization} weights=[${p.weights.map((w) => +w.toFixed(2)).join(', ')}]`;
}

/** One (set, class) cell: hybrid figures and the best of its halves (lexical, semantic); `set` is `both` for cells over every set's questions. */
export interface Cell {
  set: string;
  cls: string;
  hybrid: QualityFigures;
  best: { hitAt5: number; mrrAt10: number };
}

/**
 * The (set, class) cells of `split`: per set, or pooled over the sets (`set: "both"`), each
 * set's questions keeping the half it has in its own table.
 */
function cells(runs: readonly TuningRun[], params: FusionParams, split: Split, pooled: boolean): Cell[] {
  const groups = new Map<string, { questions: Question[]; ranked: string[][][] }>();
  for (const run of runs) {
    const half = halves(run.questions);
    const hybrid = replayHybrid(run.lists, params);
    const group = groups.get(pooled ? 'both' : run.set) ?? { questions: [], ranked: [[], [], []] };
    run.questions.forEach((q, i) => {
      if (split !== 'all' && half[i] !== split) return;
      const l = run.lists[i];
      group.questions.push(q);
      [hybrid[i], l.lexical.map((e) => e.key), l.semantic.map((e) => e.key)].forEach((r, k) => group.ranked[k].push(r));
    });
    groups.set(pooled ? 'both' : run.set, group);
  }
  const out: Cell[] = [];
  for (const [set, { questions, ranked }] of groups) {
    const [hybrid, ...sides] = ranked.map((r) =>
      qualityByClass(
        questions,
        questions.map((q, i) => ({ answers: q.answers, ranked: r[i] })),
        'all',
      ),
    );
    for (const cls of classesOf(questions).filter((c) => c !== 'all')) {
      const best = {
        hitAt5: Math.max(...sides.map((h) => h.get(cls)!.hitAt5)),
        mrrAt10: Math.max(...sides.map((h) => h.get(cls)!.mrrAt10)),
      };
      out.push({ set, cls, hybrid: hybrid.get(cls)!, best });
    }
  }
  return out;
}

/** The objective of the file's comment over `cs` (higher is better). */
export function objective(cs: readonly Cell[]): number {
  if (cs.length === 0) return 0;
  let sum = 0;
  for (const c of cs) {
    const shortfall = Math.max(0, c.best.hitAt5 - c.hybrid.hitAt5) + Math.max(0, c.best.mrrAt10 - c.hybrid.mrrAt10);
    sum += (c.hybrid.hitAt5 + c.hybrid.mrrAt10) / 2 - SHORTFALL_PENALTY * shortfall;
  }
  return sum / cs.length;
}

function losses(cs: readonly Cell[]): string {
  const lost = cs.filter((c) => c.hybrid.hitAt5 < c.best.hitAt5 - 1e-9 || c.hybrid.mrrAt10 < c.best.mrrAt10 - 1e-9);
  return lost.length === 0
    ? 'never below its better half'
    : `below its better half in ${lost.map((c) => `${c.set}/${c.cls} (${cell(c.hybrid)} vs ${c.best.hitAt5.toFixed(2)} / ${c.best.mrrAt10.toFixed(2)})`).join(', ')}`;
}

/** Rank of the first listed answer in the top 10 (0-based), 10 when none: where a question's answer stands in one ranking. */
export function answerRank(answers: readonly string[], ranked: readonly string[]): number {
  const at = ranked.slice(0, 10).findIndex((p) => answers.includes(p));
  return at < 0 ? 10 : at;
}

/** Questions of `split` whose first answer hybrid (with `params`) ranks below the better of its halves on that question (see the file's comment, 2). */
export function questionLosses(runs: readonly TuningRun[], params: FusionParams, split: Split): number {
  let lost = 0;
  for (const run of runs) {
    const half = halves(run.questions);
    const hybrid = replayHybrid(run.lists, params);
    run.questions.forEach((q, i) => {
      if (split !== 'all' && half[i] !== split) return;
      const l = run.lists[i];
      const best = Math.min(
        answerRank(
          q.answers,
          l.lexical.map((e) => e.key),
        ),
        answerRank(
          q.answers,
          l.semantic.map((e) => e.key),
        ),
      );
      if (answerRank(q.answers, hybrid[i]) > best) lost++;
    });
  }
  return lost;
}

/** True when hybrid is at least its better half in every cell (hit@5 and MRR@10). */
export function neverBelow(cs: readonly Cell[]): boolean {
  return cs.every((c) => c.hybrid.hitAt5 >= c.best.hitAt5 - 1e-9 && c.hybrid.mrrAt10 >= c.best.mrrAt10 - 1e-9);
}

/** One parameter set's standing on a split: the three criteria of the file's comment. */
export interface Standing {
  params: FusionParams;
  safe: boolean;
  lost: number;
  objective: number;
}

/** Orders standings by the file's comment: safe first, then fewest losses, then highest objective. */
export function byStanding(a: Standing, b: Standing): number {
  return Number(b.safe) - Number(a.safe) || a.lost - b.lost || b.objective - a.objective;
}

function standing(runs: readonly TuningRun[], params: FusionParams, split: Split): Standing {
  return {
    params,
    safe: neverBelow(cells(runs, params, split, false)),
    lost: questionLosses(runs, params, split),
    objective: objective(cells(runs, params, split, true)),
  };
}

function describeStanding(s: Standing): string {
  return `${s.safe ? 'never below its better half' : 'below its better half'}, ${s.lost} questions below, objective ${s.objective.toFixed(3)}`;
}

/**
 * Ranks every parameter set of {@link fusionGrid} on the tuning half of `runs` (see the file's
 * comment) and prints the best five with their held-out figures, and where the current
 * HYBRID_FUSION stands.
 * @returns the best parameters, or null when there is nothing to tune on
 */
export function tuneFusion(runs: readonly TuningRun[], source: string, log: Log): FusionParams | null {
  if (runs.length === 0) return null;
  const ranked = fusionGrid().map((params) => standing(runs, params, 'tuning'));
  ranked.sort(byStanding);
  log(
    `\nfusion tuning with ${source} on the tuning half of ${runs.map((r) => r.set).join(' + ')} (safe in every class of each set, then fewest questions below their better half, then the pooled mean of hit@5 and MRR@10 minus ${SHORTFALL_PENALTY} × shortfall); held-out per set`,
  );
  for (const s of ranked.slice(0, 5)) {
    const held = cells(runs, s.params, 'held-out', false);
    log(
      `  ${describeFusion(s.params).padEnd(40)} tuning: ${describeStanding(s)}; held-out: ${questionLosses(runs, s.params, 'held-out')} questions below, ${losses(held)}`,
    );
  }
  const current = standing(runs, HYBRID_FUSION, 'tuning');
  const currentHeld = cells(runs, HYBRID_FUSION, 'held-out', false);
  log(
    `  current HYBRID_FUSION ${describeFusion(HYBRID_FUSION)}: tuning: ${describeStanding(current)}; held-out: ${questionLosses(runs, HYBRID_FUSION, 'held-out')} questions below, ${losses(currentHeld)}`,
  );
  return ranked[0].params;
}
