import { LexicalEngine, type CallerAccess, type IndexedNote } from '../../../../src/search/engine/lexical-engine';
import * as dense from '../../../../src/search/engine/ranked/ranked-dense';
import { PEAK_LEVELS, peakLevel } from '../../../../src/search/engine/postings/dense-terms';
import { built, everyone, match, note, page, sameAsExhaustive } from '../../../harness/ranked-exhaustive';

/**
 * Ranked retrieval of several very common words (ranked-dense.ts, dense-terms.ts): on random
 * corpora whose words are each held by many notes, the page of such a query equals the first k
 * of the exhaustive order (every hit scored: k Infinity), with the same scores, total and
 * all-terms count, after a build, after edits, loaded from saved lines with tombstones, and for
 * a caller who sees part of the vault.
 */

const words = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma', 'kappa', 'theta', 'lambda', 'zeta'];
/** Words all dense, a word of two expansions (`betas` brings `beta`), and a rare word (not dense: its postings are scored). */
const queries = [
  'alpha beta',
  'beta alpha',
  'gamma delta omega',
  'alpha beta gamma delta',
  'alpha sigma',
  'alpha betas',
  'alpha rare',
  'rare beta gamma',
];

/** A random corpus: skewed word frequencies, bodies of 2–60 words, titles of one to three words (titles the queries name whole earn the title factor). */
function corpus(seed: number, size: number): IndexedNote[] {
  let s = seed;
  const random = (): number => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const pick = (): string => words[Math.floor(random() * random() * words.length)];
  return Array.from({ length: size }, (_, i) => {
    const title = Array.from({ length: 1 + Math.floor(random() * random() * 3) }, pick).join(' ');
    const body = Array.from({ length: 2 + Math.floor(random() * random() * 60) }, pick).join(' ');
    // A few stem variants ("betas") make a word of two expansions; "rare" is in about one note of twelve.
    const text = `${body}${random() < 0.3 ? ' betas' : ''}${random() < 0.08 ? ' rare' : ''}`;
    return note(`F${i % 7}/N${String(i).padStart(4, '0')}.md`, title, text, random() < 0.1 ? [pick()] : []);
  });
}

/** {@link sameAsExhaustive} for this file's ks, spying on `denseScores`. */
const checkPages = (engine: LexicalEngine, queries: readonly string[], who?: CallerAccess): Promise<number> =>
  sameAsExhaustive(engine, queries, [1, 2, 3, 5, 10, 20, 50], () => jest.spyOn(dense, 'denseScores'), who);

describe('ranked retrieval of several common words by bitsets and window bounds', () => {
  it('rounds window peaks up to a level at or above the value, 0 for none and the top level for any larger', () => {
    for (const x of [1e-9, 0.001, 0.5, 1, 1.0001, 3.7, 57, 1e6]) {
      const q = peakLevel(x);
      expect(PEAK_LEVELS[q]).toBeGreaterThanOrEqual(x);
      if (q > 1) expect(PEAK_LEVELS[q - 1]).toBeLessThan(x);
    }
    expect(peakLevel(0)).toBe(0);
    expect(PEAK_LEVELS[peakLevel(1e6)]).toBe(Infinity);
  });

  it('gives, on random corpora, the first k of the exhaustive order with the same scores and counts', async () => {
    for (let seed = 1; seed <= 4; seed++) {
      const engine = built(corpus(seed, 400 + seed * 150));
      // The common words are dense and their pages were answered by bitsets and windows (else this test would show nothing).
      expect(await checkPages(engine, queries)).toBeGreaterThan(30);
    }
  });

  it('stays exact after edits: appended notes set bits and raise windows, removed ones clear bits', async () => {
    const notes = corpus(11, 900);
    const engine = built(notes);
    const extra = corpus(12, 300).map((n, i) => ({
      ...n,
      path: `New/N${i}.md`,
      title: i % 5 === 0 ? 'alpha beta' : n.title,
      text: `${n.text} alpha beta alpha`,
    }));
    for (const n of extra) engine.add(n);
    for (let i = 0; i < notes.length; i += 3) engine.remove(notes[i].path);
    for (let i = 0; i < 60; i += 3) engine.add({ ...notes[i], title: 'gamma delta' });
    expect(await checkPages(engine, queries)).toBeGreaterThan(20);
  });

  it('answers an index loaded from its saved lines (dense terms made with the bounds after the load), with tombstones', async () => {
    const notes = corpus(31, 700);
    const copy = new LexicalEngine();
    await copy.load(built(notes).savedSteps(), async () => undefined);
    for (const step of copy.boundSteps()) void step;
    expect(await checkPages(copy, queries)).toBeGreaterThan(20);
    // A loaded note has no term list: removing it leaves a tombstone, which no view shows.
    for (let i = 5; i < 400; i += 4) copy.remove(notes[i].path);
    copy.add({ ...notes[5], title: 'alpha beta' });
    expect(await checkPages(copy, queries)).toBeGreaterThan(20);
  });

  it('marks an excluded dense word by its bitset: the same matches, order and scores as an index without dense terms', async () => {
    const notes = corpus(41, 900);
    const engine = built(notes);
    // No build end: no block bounds, no dense terms; every word is read from its postings.
    const plain = new LexicalEngine();
    for (const n of notes) plain.add(n);
    for (const n of notes.slice(0, 200).filter((_, i) => i % 4 === 0)) {
      engine.remove(n.path);
      plain.remove(n.path);
    }
    const some = { key: 'some', allow: (path: string): boolean => !path.startsWith('F2/') };
    for (const who of [everyone, some])
      for (const q of ['alpha -beta', 'gamma -alpha -delta', '-beta alpha', 'rare -alpha', 'sigma -betas', 'alpha -bet'])
        for (const k of [5, Infinity]) {
          const [a, b] = [await match(engine, q, k, who), await match(plain, q, k, who)];
          expect([q, k, a.total, page(a, 50)]).toEqual([q, k, b.total, page(b, 50)]);
        }
  });

  it('answers a caller who sees part of the vault as without pruning', async () => {
    const engine = built(corpus(21, 800));
    const some = { key: 'some', allow: (path: string): boolean => !path.startsWith('F3/') };
    expect(await checkPages(engine, queries, some)).toBeGreaterThan(20);
  });
});
