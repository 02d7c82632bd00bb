import { LexicalEngine } from '../../../../src/search/engine/lexical-engine';
import { TermIndex } from '../../../../src/search/engine/term-index';
import { note } from '../../../harness/ranked-exhaustive';

/**
 * The order in which a build's end makes the posting lists' block bounds (TermIndex.boundSteps):
 * the shortest list first, so the commonest words (the first term ids) are bounded by compiled
 * code, not one interpreted step each.
 */
describe('block bounds made shortest list first', () => {
  it('bounds the lists shortest first, and every list long enough', () => {
    // `common` in all 5,000 notes, `middling` in every 4th, `uncommon` in every 20th, and one word per note (too short to bound).
    const engine = new LexicalEngine();
    for (let i = 0; i < 5000; i++) {
      const words = ['common', i % 4 === 0 ? 'middling' : '', i % 20 === 0 ? 'uncommon' : '', `only${i}`].filter(Boolean);
      engine.add(note(`N${i}.md`, `Note ${i}`, words.join(' ')));
    }
    const bounded: number[] = [];
    const boundTerm = jest.spyOn(TermIndex.prototype as unknown as { boundTerm(id: number): number }, 'boundTerm');
    try {
      for (const step of engine.trimSteps()) void step;
      for (const result of boundTerm.mock.results)
        if (result.type === 'return' && (result.value as number) > 0) bounded.push(result.value as number);
    } finally {
      boundTerm.mockRestore();
    }
    // `uncommon` (250 postings), `middling` (1,250), then `common` and the title word `note` (5,000 each).
    expect(bounded).toEqual([250, 1250, 5000, 5000]);
  });
});
