import { LexicalEngine, type CallerAccess, type IndexedNote } from '../../../../src/search/engine/lexical-engine';
import * as pruning from '../../../../src/search/engine/ranked/ranked-pruning';
import { built, note, sameAsExhaustive } from '../../../harness/ranked-exhaustive';

/**
 * Ranked retrieval with block bounds (ranked-pruning.ts, block-bounds.ts): on random corpora
 * whose common words fill many blocks, the page of a pruned query equals the first k of the
 * exhaustive order (every hit scored: k Infinity), with the same scores, total and all-terms
 * count, after a build, after edits (appends raise bounds, removals merge blocks), and for a
 * caller who sees part of the vault.
 */

const words = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma', 'kappa', 'theta', 'lambda', 'zeta'];

/** A random corpus: skewed word frequencies, bodies of 2–60 words, titles of one to three words (a one-word title earns the title factor). */
function corpus(seed: number, size: number): IndexedNote[] {
  let s = seed;
  const random = (): number => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const pick = (): string => words[Math.floor(random() * random() * words.length)];
  return Array.from({ length: size }, (_, i) => {
    const title = Array.from({ length: 1 + Math.floor(random() * random() * 3) }, pick).join(' ');
    const body = Array.from({ length: 2 + Math.floor(random() * random() * 60) }, pick).join(' ');
    return note(`F${i % 7}/N${String(i).padStart(4, '0')}.md`, title, body, random() < 0.1 ? [pick()] : []);
  });
}

/** {@link sameAsExhaustive} for this file's ks, spying on `prunedScores`. */
const checkPages = (engine: LexicalEngine, queries: readonly string[], who?: CallerAccess): Promise<number> =>
  sameAsExhaustive(engine, queries, [1, 2, 5, 10, 20, 50], () => jest.spyOn(pruning, 'prunedScores'), who);

describe('ranked retrieval pruned by block bounds', () => {
  it('gives, on random corpora, the first k of the exhaustive order with the same scores and counts', async () => {
    for (let seed = 1; seed <= 4; seed++) {
      const engine = built(corpus(seed, 400 + seed * 150));
      const pruned = await checkPages(engine, [...words.slice(0, 6), 'alpha beta', 'gamma delta omega']);
      // The common words' lists have bounds and their pages were pruned (else this test would show nothing).
      expect(pruned).toBeGreaterThan(20);
    }
  });

  it('stays exact after edits: appended notes raise the last blocks, removed ones merge blocks', async () => {
    const notes = corpus(11, 900);
    const engine = built(notes);
    const extra = corpus(12, 300).map((n, i) => ({ ...n, path: `New/N${i}.md`, text: `${n.text} alpha alpha alpha` }));
    for (const n of extra) engine.add(n);
    // Every third note removed, and runs of notes whose removal empties whole blocks (the blocks after them merge in), then a few put back under new doc ids.
    for (let i = 0; i < notes.length; i += 3) engine.remove(notes[i].path);
    for (let run = 100; run < notes.length; run += 200) for (let i = run; i < run + 60; i++) engine.remove(notes[i].path);
    for (let i = 0; i < 60; i += 3) engine.add({ ...notes[i], title: 'alpha' });
    expect(await checkPages(engine, ['alpha', 'beta', 'gamma', 'delta'])).toBeGreaterThan(10);
  });

  it('keeps the larger bound when removals empty a block and the next one merges into it', async () => {
    const filler = (n: number): string => Array.from({ length: n }, (_, i) => `w${i % 50}`).join(' ');
    // Doc order: plain notes, notes where the word is lost in long bodies (low bounds), notes titled with it (the page), plain notes.
    const kinds = [
      ...Array.from({ length: 100 }, () => ['x', `alpha ${filler(10)}`]),
      ...Array.from({ length: 100 }, () => ['y', `alpha ${filler(300)}`]),
      ...Array.from({ length: 100 }, () => ['alpha', `alpha ${filler(10)}`]),
      ...Array.from({ length: 100 }, () => ['z', `alpha ${filler(10)}`]),
    ];
    const notes = kinds.map(([title, body], i) => note(`N${String(i).padStart(4, '0')}.md`, title, body));
    const engine = built(notes);
    for (let i = 100; i < 200; i++) engine.remove(notes[i].path);
    expect(await checkPages(engine, ['alpha'])).toBeGreaterThan(0);
  });

  it('prunes an index loaded from its saved lines (bounds made after the load), with a few tombstones but not many', async () => {
    const notes = corpus(31, 700);
    const copy = new LexicalEngine();
    await copy.load(built(notes).savedSteps(), async () => undefined);
    // Loaded without bounds, the lists are scored whole: the same answers.
    expect(await checkPages(copy, ['alpha', 'beta', 'gamma'])).toBe(0);
    for (const step of copy.boundSteps()) void step;
    expect(await checkPages(copy, ['alpha', 'beta', 'gamma'])).toBeGreaterThan(10);
    // A loaded note has no term list: removing it leaves a tombstone in the lists, which the total leaves out.
    for (let i = 5; i < 200; i += 20) copy.remove(notes[i].path);
    copy.add({ ...notes[5], title: 'alpha' });
    expect(await checkPages(copy, ['alpha', 'beta', 'gamma'])).toBeGreaterThan(10);
    // Past 64 tombstones they are no longer looked up one by one: scored whole.
    for (let i = 200; i < 400; i += 2) copy.remove(notes[i].path);
    expect(await checkPages(copy, ['alpha', 'beta', 'gamma'])).toBe(0);
  });

  it('answers a caller who sees part of the vault as without pruning (that view is scored whole)', async () => {
    const engine = built(corpus(21, 800));
    const some = { key: 'some', allow: (path: string): boolean => !path.startsWith('F3/') };
    expect(await checkPages(engine, ['alpha', 'beta', 'gamma'], some)).toBe(0);
  });
});
