import { literalParts, literalPattern, literalTest, matchesTitleAndText } from '../../../../src/search/query/text-match';

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

describe('literalTest', () => {
  it('tests true exactly where literalPattern does, surrogate pairs, folds and odd spaces included', () => {
    const pieces = [
      'ab',
      'AB',
      'a',
      'b',
      '\u212a',
      'k',
      'K',
      '\u017f',
      's',
      '.',
      '/',
      '[',
      ' ',
      '\u00a0',
      '\u3000',
      '\n',
      '\ud83d\ude00',
      '\ud83d',
      '\ude00',
      'e\u0301',
      '\u00e9',
    ];
    const phrases = ['ab', 'a b', 'k s', 'AB.', 'a/[b', 'é b', 'Ks s'];
    let seed = 11;
    const random = (): number => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    let found = 0;
    for (let i = 0; i < 4000; i++) {
      const phrase = phrases[i % phrases.length];
      const sensitive = i % 3 === 0;
      const text = Array.from({ length: Math.floor(random() * 10) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
      const expected = literalPattern(phrase, sensitive).test(text);
      if (expected) found++;
      expect([phrase, sensitive, text, literalTest(phrase, sensitive).test(text)]).toEqual([phrase, sensitive, text, expected]);
    }
    expect(found).toBeGreaterThan(200);
    expect(literalTest('a b').flags).toBe('');
    expect(literalTest('é b').flags).toBe('iu');
  });
});

describe('matchesTitleAndText', () => {
  it('answers as the pattern on title, newline, text does, for phrases inside the title, the text or across them', () => {
    const pieces = ['ab', 'abc', 'b', 'c', 'Ab', 'cab', ' ', '  ', '\n', '\t'];
    const phrases = ['ab c', 'b ab', 'ab', 'c ab b', 'abc ab', 'b  c'];
    let seed = 3;
    const random = (): number => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    const text = (): string =>
      Array.from({ length: Math.floor(random() * 8) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
    let found = 0;
    for (let i = 0; i < 3000; i++) {
      const phrase = phrases[i % phrases.length];
      const pattern = literalPattern(phrase);
      const [title, body] = [text(), text()];
      const expected = pattern.test(`${title}\n${body}`);
      if (expected) found++;
      expect(matchesTitleAndText(pattern, literalParts(phrase), title, body)).toBe(expected);
    }
    expect(found).toBeGreaterThan(300);
  });

  it('finds a phrase that starts at the end of the title and ends in the text', () => {
    const pattern = literalPattern('remote session');
    expect(matchesTitleAndText(pattern, 2, 'About remote', '  session state')).toBe(true);
    expect(matchesTitleAndText(pattern, 2, 'About remote', 'other session')).toBe(false);
  });
});
