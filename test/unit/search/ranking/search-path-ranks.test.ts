import fc from 'fast-check';
import { PathRanks } from '../../../../src/search/engine/filters/path-ranks';
import { bestPositions } from '../../../../src/search/engine/filters/index-filter';

/**
 * PathRanks (engine/path-ranks.ts) replaces comparing two notes' paths by comparing two
 * integers, and bestPositions (engine/index-filter.ts) orders ties on score by them. Checked
 * against the paths themselves: after notes are added and removed (doc ids never reused, a
 * path re-added under a new id) and ranked in several covers, the ranks of the live documents
 * order them exactly as `<` orders their paths, and the best k positions are those of a full
 * sort by score descending, then path ascending.
 */

/** Path pieces that sort in surprising ways: case, a prefix of another, accents precomposed and decomposed, a surrogate pair, a space. */
const PIECES = ['a', 'A', 'b', 'ab', 'é', 'e\u0301', '\u{1F600}', 'z', ' ', '/', 'Z/'];
const arbPath = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 4 }).map((p) => `${p.join('')}.md`);

type Step = { kind: 'add'; path: string } | { kind: 'remove'; at: number } | { kind: 'cover' };
const arbStep: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: arbPath.map((path) => ({ kind: 'add' as const, path })) },
  { weight: 2, arbitrary: fc.nat().map((at) => ({ kind: 'remove' as const, at })) },
  { weight: 2, arbitrary: fc.constant({ kind: 'cover' as const }) },
);

/** Replays `steps` on a vault of unique live paths: each doc id's path (undefined once removed), as an engine's records are. */
function replay(steps: Step[], ranks: PathRanks, byDoc: (string | undefined)[]): void {
  for (const step of steps) {
    if (step.kind === 'cover') ranks.cover(byDoc.length);
    else if (step.kind === 'add') {
      // A path is unique among live notes: adding it again replaces the note under a new doc id.
      const old = byDoc.indexOf(step.path);
      if (old >= 0) byDoc[old] = undefined;
      byDoc.push(step.path);
    } else {
      const live = byDoc.flatMap((p, doc) => (p === undefined ? [] : [doc]));
      if (live.length > 0) byDoc[live[step.at % live.length]] = undefined;
    }
  }
  ranks.cover(byDoc.length);
}

describe('PathRanks: each doc id’s rank in path order', () => {
  it('orders every two live documents as their paths, over adds, removals, re-adds and several covers', () => {
    fc.assert(
      fc.property(fc.array(arbStep, { maxLength: 60 }), (steps) => {
        const byDoc: (string | undefined)[] = [];
        const ranks = new PathRanks((doc) => byDoc[doc]);
        replay(steps, ranks, byDoc);
        const live = byDoc.flatMap((p, doc) => (p === undefined ? [] : [doc]));
        const rank = ranks.byDoc;
        for (const a of live)
          for (const b of live) {
            const pa = byDoc[a] as string;
            const pb = byDoc[b] as string;
            expect(Math.sign(rank[a] - rank[b])).toBe(pa < pb ? -1 : pa > pb ? 1 : 0);
          }
      }),
      { numRuns: 300 },
    );
  });

  it('ranks nothing twice: a cover of documents already ranked changes no rank', () => {
    const byDoc = ['b.md', 'a.md', 'c.md'];
    const ranks = new PathRanks((doc) => byDoc[doc]);
    ranks.cover(3);
    const before = Array.from(ranks.byDoc.subarray(0, 3));
    ranks.cover(2);
    ranks.cover(3);
    expect(Array.from(ranks.byDoc.subarray(0, 3))).toEqual(before);
    expect(before).toEqual([1, 0, 2]);
  });
});

describe('bestPositions: the best k scored doc ids, ties by path rank', () => {
  it('gives the first k of a full sort by score descending, then path ascending', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ path: arbPath, score: fc.constantFrom(0, 0, 0.5, 1.25, 3) }), { maxLength: 40 }),
        fc.oneof(fc.integer({ min: 0, max: 45 }), fc.constant(Infinity)),
        (notes, k) => {
          // Unique paths, doc ids in the order given (not path order).
          const byDoc = [...new Map(notes.map((n) => [n.path, n])).values()];
          const ranks = new PathRanks((doc) => byDoc[doc]?.path);
          ranks.cover(byDoc.length);
          // Candidates in a scrambled order, as a tag's notes or a word's postings come.
          const order = byDoc.map((_, doc) => doc).sort((a, b) => ((a * 7) % 11) - ((b * 7) % 11) || a - b);
          const docs = Int32Array.from(order);
          const scores = Float64Array.from(order, (doc) => byDoc[doc].score);
          const got = bestPositions(docs, scores, docs.length, k, ranks.byDoc).map((at) => byDoc[docs[at]].path);
          const want = [...byDoc]
            .sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
            .slice(0, k)
            .map((n) => n.path);
          expect(got).toEqual(want);
        },
      ),
      { numRuns: 300 },
    );
  });
});
