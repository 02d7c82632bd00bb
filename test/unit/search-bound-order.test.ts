import { LexicalEngine } from '../../src/search/engine/lexical-engine';
import { TermIndex } from '../../src/search/engine/term-index';
import { note } from '../harness/ranked-exhaustive';

/**
 * The order in which a build's end makes the posting lists' block bounds (TermIndex.boundSteps):
 * the lists of up to 4,096 postings first, then the longer ones, so the commonest words (the
 * first term ids) are bounded by compiled code, not one interpreted step each.
 */
describe('block bounds made shorter lists first', () => {
  it('bounds every list of up to 4,096 postings before any longer one, and every list long enough', () => {
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
    // `common` (5,000 postings, and the title word `note`), `middling` (1,250), `uncommon` (250): the long ones last.
    expect(bounded.filter((n) => n > 4096)).toEqual([5000, 5000]);
    expect(bounded.slice(0, -2).every((n) => n <= 4096)).toBe(true);
    expect(bounded.slice(0, -2).sort((a, b) => a - b)).toEqual([250, 1250]);
  });
});
