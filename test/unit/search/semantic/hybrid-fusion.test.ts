/**
 * Hybrid search's fusion (src/search/hybrid/fusion.ts) and what it fuses
 * (src/search/hybrid/candidates.ts): weighted reciprocal rank, normalized-score combination,
 * the lists in fusion order and each hit's `source`.
 */
import { fusedSource, hybridLists, SEMANTIC_LIST } from '../../../../src/search/hybrid/candidates';
import { fuse, fuseByRank, fuseByScore, HYBRID_FUSION, RRF_K } from '../../../../src/search/hybrid/fusion';

const keys = (entries: Array<{ key: string }>) => entries.map((e) => e.key);

describe('fuseByRank (weighted RRF)', () => {
  it('weights each list: a heavier second list wins where the first would', () => {
    expect(
      keys(
        fuseByRank(
          [
            ['a', 'b'],
            ['b', 'a'],
          ],
          10,
          [1, 1],
        ),
      ),
    ).toEqual(['a', 'b']);
    expect(
      keys(
        fuseByRank(
          [
            ['a', 'b'],
            ['b', 'a'],
          ],
          10,
          [1, 2],
        ),
      ),
    ).toEqual(['b', 'a']);
    const [b] = fuseByRank(
      [
        ['a', 'b'],
        ['b', 'a'],
      ],
      10,
      [1, 2],
    );
    expect(b).toEqual({ key: 'b', score: 1 / 12 + 2 / 11, lists: [0, 1] });
  });

  it('counts a key once per list at its first rank, and leaves a list of weight 0 out entirely', () => {
    expect(fuseByRank([['a', 'a', 'b']], RRF_K)[0]).toEqual({ key: 'a', score: 1 / (RRF_K + 1), lists: [0] });
    const fused = fuseByRank([['a'], ['z', 'a']], 60, [1, 0]);
    expect(fused).toEqual([{ key: 'a', score: 1 / 61, lists: [0] }]);
  });

  it('refuses k ≤ 0 and weights that do not match the lists', () => {
    expect(() => fuseByRank([['a']], 0)).toThrow(/k must be > 0, got 0/);
    expect(() => fuseByRank([['a'], ['b']], 60, [1])).toThrow(/one weight ≥ 0 per list \(2\), got \[1\]/);
    expect(() => fuseByRank([['a']], 60, [-1])).toThrow(/got \[-1\]/);
    expect(() => fuseByRank([['a']], 60, [NaN])).toThrow(/one weight/);
  });
});

describe('fuseByScore (convex combination of normalized scores)', () => {
  const lexical = [
    { key: 'a', score: 10 },
    { key: 'b', score: 9 },
    { key: 'c', score: 1 },
  ];
  const semantic = [
    { key: 'c', score: 0.9 },
    { key: 'b', score: 0.8 },
    { key: 'd', score: 0.1 },
  ];

  it('min-max maps each list to 0…1 and adds them by weight; a tie keeps first appearance', () => {
    const fused = fuseByScore([lexical, semantic], 'min-max', [0.5, 0.5]);
    // b is near the top of both; a (top lexical, absent from semantic) and c (bottom lexical, top semantic) tie at 0.5.
    expect(keys(fused)).toEqual(['b', 'a', 'c', 'd']);
    expect(keys(fuseByScore([lexical, semantic], 'min-max', [0.4, 0.6]))).toEqual(['b', 'c', 'a', 'd']);
    expect(fused[0].score).toBeCloseTo(0.5 * (8 / 9) + 0.5 * (0.7 / 0.8), 10);
    expect(fused.find((e) => e.key === 'd')).toEqual({ key: 'd', score: 0, lists: [1] });
  });

  it('max keeps score ratios; z centres each list on its mean', () => {
    const byMax = fuseByScore([lexical], 'max', [1]);
    expect(byMax.map((e) => e.score)).toEqual([1, 0.9, 0.1]);
    const byZ = fuseByScore([lexical], 'z', [1]);
    expect(byZ.reduce((s, e) => s + e.score, 0)).toBeCloseTo(0, 10);
    expect(keys(byZ)).toEqual(['a', 'b', 'c']);
  });

  it('a list of equal scores: min-max gives 1, z gives 0, max gives 1; an empty list adds nothing', () => {
    const flat = [
      { key: 'x', score: 3 },
      { key: 'y', score: 3 },
    ];
    expect(fuseByScore([flat], 'min-max', [1]).map((e) => e.score)).toEqual([1, 1]);
    expect(fuseByScore([flat], 'z', [1]).map((e) => e.score)).toEqual([0, 0]);
    expect(fuseByScore([flat], 'max', [1]).map((e) => e.score)).toEqual([1, 1]);
    expect(fuseByScore([[], flat], 'max', [1, 1]).map((e) => e.lists)).toEqual([[1], [1]]);
  });

  it('refuses weights that do not match the lists', () => {
    expect(() => fuseByScore([lexical, semantic], 'max', [1])).toThrow(/fuseByScore: want one weight/);
  });
});

describe('fuse dispatches on the method', () => {
  const lists = [
    [
      { key: 'a', score: 5 },
      { key: 'b', score: 4 },
    ],
    [{ key: 'b', score: 0.9 }],
  ];
  it('rank ignores scores, score uses them', () => {
    expect(fuse(lists, { method: 'rank', k: 60, weights: [1, 1] })).toEqual(fuseByRank([['a', 'b'], ['b']], 60, [1, 1]));
    expect(fuse(lists, { method: 'score', normalization: 'max', weights: [1, 1] })).toEqual(fuseByScore(lists, 'max', [1, 1]));
  });

  it('HYBRID_FUSION keeps an every-word lexical top first whatever the semantic half says, and lets meaning reorder near ties', () => {
    const lexical = [
      { key: 'exact', score: 10 },
      { key: 'near', score: 9.8 },
      { key: 'partial', score: 4 },
    ];
    const allTerms = lexical.slice(0, 2);
    // The semantic half ranks a note the words missed first, and the lexical top last.
    const semantic = [
      { key: 'meaning-only', score: 0.9 },
      { key: 'partial', score: 0.8 },
      { key: 'exact', score: 0.1 },
    ];
    const fused = fuse(hybridLists(allTerms, lexical, semantic), HYBRID_FUSION);
    expect(keys(fused)[0]).toBe('exact');
    expect(fused.map((e) => [e.key, fusedSource(e.lists)])).toContainEqual(['meaning-only', 'semantic']);
    expect(fusedSource(fused.find((e) => e.key === 'exact')!.lists)).toBe('both');
    expect(keys(fused).indexOf('meaning-only')).toBeGreaterThan(keys(fused).indexOf('partial'));
    // Two every-word notes 2 % apart: the one the semantic half prefers comes first.
    const tied = fuse(
      hybridLists(allTerms, lexical, [
        { key: 'near', score: 0.9 },
        { key: 'exact', score: 0.1 },
      ]),
      HYBRID_FUSION,
    );
    expect(keys(tied).slice(0, 2)).toEqual(['near', 'exact']);
  });

  it('HYBRID_FUSION has one weight per list of hybridLists', () => {
    expect(HYBRID_FUSION.weights).toHaveLength(hybridLists([], [], []).length);
    expect(() => fuse(hybridLists([], [], []), HYBRID_FUSION)).not.toThrow();
  });
});

describe('what hybrid search fuses', () => {
  it('lists the every-word hits, the lexical ranking and the semantic hits in that order', () => {
    const all = [{ key: 'a', score: 2 }];
    const ranked = [...all, { key: 'b', score: 1 }];
    const sem = [{ key: 'c', score: 0.5 }];
    expect(hybridLists(all, ranked, sem)).toEqual([all, ranked, sem]);
    expect(hybridLists(all, ranked, sem)[SEMANTIC_LIST]).toBe(sem);
  });

  it('a hit found by one half says so; found by both, both', () => {
    expect(fusedSource([0])).toBe('lexical');
    expect(fusedSource([0, 1])).toBe('lexical');
    expect(fusedSource([SEMANTIC_LIST])).toBe('semantic');
    expect(fusedSource([1, SEMANTIC_LIST])).toBe('both');
  });
});
