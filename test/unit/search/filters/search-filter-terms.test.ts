import fc from 'fast-check';
import { FilterScratch, scoreFilterWord } from '../../../../src/search/engine/filters/filter-terms';
import { FIELD_BOOSTS } from '../../../../src/search/engine/text/note-fields';
import { TermIndex, type ExpandMode } from '../../../../src/search/engine/term-index';

/**
 * scoreFilterWord scores a filter query's words in arrays kept between calls (FilterScratch),
 * and keeps each word's hits in arrays the scratch lends and takes back: each call must leave
 * them as the next one needs them, so a scratch shared by many calls (of one, two and three
 * terms, scored and only marked, over an index that grows between them, each call's hits given
 * back) must give every call the scores and holders a fresh scratch gives.
 */

const VOCAB = ['ab', 'abc', 'abd', 'b', 'bc', 'cd', 'cde', 'e'];
/** Fields in index order (title, path, body, headings, tags, properties, aliases): a title and a body. */
const fields = (title: string, text: string): string[] => [title, '', text, '', '', '', ''];
const arbDoc = fc.tuple(
  fc.array(fc.constantFrom(...VOCAB), { maxLength: 2 }).map((ws) => ws.join(' ')),
  fc.array(fc.constantFrom(...VOCAB), { minLength: 1, maxLength: 8 }).map((ws) => ws.join(' ')),
);
const arbCall = fc.record({
  text: fc.array(fc.constantFrom(...VOCAB, 'zz'), { minLength: 1, maxLength: 3 }).map((ws) => ws.join(' ')),
  prefix: fc.boolean(),
  scored: fc.boolean(),
  hide: fc.nat(3),
  /** Documents added to the index before this call (the scratch must grow with it). */
  added: fc.array(arbDoc, { maxLength: 6 }),
});

type Call = { text: string; prefix: boolean; scored: boolean; hide: number; added: [string, string][] };

/** The scores and holders of one call, comparable (every doc id's value, the holders in order). */
function run(index: TermIndex, call: Call, scratch: FilterScratch): { values: number[]; docs: number[] } {
  const mode = (): ExpandMode => ({ prefix: call.prefix, fuzzy: false });
  const view = index.view((doc) => call.hide === 0 || doc % (call.hide + 1) !== 0);
  const hits = scoreFilterWord(index, call.text, mode, FIELD_BOOSTS, view, scratch, call.scored);
  const out = { values: Array.from(hits.values), docs: Array.from(hits.docs) };
  // Given back, as the engine does once a query ends: the next call may be lent the same arrays.
  scratch.give(hits.values, hits.docs);
  return out;
}

describe('scoreFilterWord with a scratch kept between calls', () => {
  it('gives every call what a fresh scratch gives, and leaves the scratch clear', () => {
    fc.assert(
      fc.property(fc.array(arbDoc, { minLength: 1, maxLength: 30 }), fc.array(arbCall, { minLength: 1, maxLength: 8 }), (docs, calls) => {
        const index = new TermIndex();
        let key = 0;
        const add = ([title, text]: [string, string]): void => void index.add(`n${key++}.md`, fields(title, text));
        docs.forEach(add);
        const shared = new FilterScratch();
        for (const call of calls) {
          call.added.forEach(add);
          expect(run(index, call, shared)).toEqual(run(index, call, new FilterScratch()));
          expect(shared.pending.every((x) => x === 0)).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('scores a word of two terms as the notes holding both, each term saturated once', () => {
    const index = new TermIndex();
    index.add('a.md', fields('', 'ab cd'));
    index.add('b.md', fields('', 'ab'));
    index.add('c.md', fields('', 'cd ab ab'));
    // A holder of the later term alone: out of the running, yet counted in that term's document frequency.
    index.add('d.md', fields('', 'cd cd'));
    const view = index.view(() => true);
    const exact = (): ExpandMode => ({ prefix: false, fuzzy: false });
    const both = scoreFilterWord(index, 'ab cd', exact, FIELD_BOOSTS, view, new FilterScratch());
    expect(Array.from(both.docs).sort()).toEqual([0, 2]);
    expect(both.values[1]).toBe(0);
    expect(both.values[3]).toBe(0);
    expect(both.values[0]).toBeGreaterThan(0);
    // Each term's score over the same view, summed and times the two terms (the filter's quality factor).
    const one = (word: string): Float64Array => scoreFilterWord(index, word, exact, FIELD_BOOSTS, view, new FilterScratch()).values;
    for (const doc of [0, 2]) expect(both.values[doc]).toBeCloseTo((one('ab')[doc] + one('cd')[doc]) * 2, 12);
    // No term held by any note: nothing scores.
    expect(Array.from(scoreFilterWord(index, 'ab zz', exact, FIELD_BOOSTS, view, new FilterScratch()).docs)).toEqual([]);
  });
});
