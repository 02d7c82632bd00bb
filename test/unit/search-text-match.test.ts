import { literalPattern } from '../../src/search/query/text-match';

/** The pattern literalPattern built before it spelled ASCII case out: the text escaped, with the `iu` flags. */
function withFlags(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), 'iu');
}

describe('literalPattern', () => {
  it('matches, for every ASCII character, exactly the characters the `iu` flags match', () => {
    // Only letters have case variants; the other ASCII characters fold to nothing else.
    const letter = /^[a-z]$/iu;
    const candidates: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      if (cp < 128 || letter.test(ch)) candidates.push(ch);
    }
    expect(candidates).toEqual(expect.arrayContaining(['\u212a', '\u017f']));
    for (let c = 0x21; c < 0x7f; c++) {
      const text = String.fromCharCode(c);
      const fast = literalPattern(text);
      const slow = withFlags(text);
      expect(fast.flags).toBe('u');
      for (const ch of candidates) expect([text, ch, fast.test(ch)]).toEqual([text, ch, slow.test(ch)]);
    }
  });

  it('finds an ASCII phrase in any case across any run of whitespace, and nothing else', () => {
    const p = literalPattern('  Tokaka   tokato ');
    expect(p.test('x TOKAKA\n\t tokatoes')).toBe(true);
    expect(p.test('tokakatokato')).toBe(false);
    expect(p.test('tokaka-tokato')).toBe(false);
    expect(p.test('\u212aelvin')).toBe(false);
    expect(literalPattern('kelvin').test('\u212aELVIN')).toBe(true);
  });

  it('keeps the `iu` flags for non-ASCII text and matches its decomposed spelling', () => {
    const p = literalPattern('Pastéis');
    expect(p.flags).toBe('iu');
    expect(p.test('PASTE\u0301IS')).toBe(true);
  });

  it('stays case-sensitive for match-case', () => {
    const p = literalPattern('Happy', true);
    expect(p.test('Happy')).toBe(true);
    expect(p.test('happy')).toBe(false);
  });
});
