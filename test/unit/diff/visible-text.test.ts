import { visiblePieces, visibleText } from '../../../src/diff/visible-text';

describe('visibleText', () => {
  test('writes out C0 and C1 controls, DEL, bidi controls and separators; keeps tab, line feed and other text', () => {
    expect(visibleText('a\u001b[8mb\rc\u0008d\u007fe\u009bf\u0085g')).toBe('a\\x1b[8mb\\rc\\x08d\\x7fe<U+009B>f<U+0085>g');
    expect(visibleText('\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2028\u2029')).toBe(
      '<U+202A><U+202B><U+202C><U+202D><U+202E><U+2066><U+2067><U+2068><U+2069><U+2028><U+2029>',
    );
    expect(visibleText('tab\there\nnext é 😀 \\x1b')).toBe('tab\there\nnext é 😀 \\x1b');
  });

  test('writes out what draws as nothing: zero-width characters, the BOM, tag characters (hidden ASCII), variation selectors (newcomer finding)', () => {
    // "hi" hidden as tag characters after a visible word: an accept would write it, the review showed nothing.
    expect(visibleText('ok\u{e0068}\u{e0069}!')).toBe('ok<U+E0068><U+E0069>!');
    expect(visibleText('a\u200bb\u200dc\ufeffd\u00ade\u2060f')).toBe('a<U+200B>b<U+200D>c<U+FEFF>d<U+00AD>e<U+2060>f');
    // Bytes smuggled as variation selectors after one character.
    expect(visibleText('x\ufe01\u{e0100}\u{e0142}')).toBe('x<U+FE01><U+E0100><U+E0142>');
    expect(visibleText('\u0600\u061c')).toBe('<U+0600><U+061C>');
  });

  test('keeps the joiners and presentation selectors that build an emoji', () => {
    for (const emoji of ['❤️', '👩‍💻', '❤️‍🔥', '👨‍👩‍👧', '☺︎', '🏳️‍🌈']) expect(visibleText(`a ${emoji} b`)).toBe(`a ${emoji} b`);
    // A joiner or selector anywhere else is written out.
    expect(visibleText('a\u200d😀')).toBe('a<U+200D>😀');
    expect(visibleText('😀\u200d')).toBe('😀<U+200D>');
    expect(visibleText('a\ufe0f')).toBe('a<U+FE0F>');
    expect(visibleText('❤️\ufe0f')).toBe('❤️<U+FE0F>');
  });
});

describe('visiblePieces', () => {
  test('cuts a long line into pieces of at most the width, never inside a written-out character or a surrogate pair', () => {
    expect(visiblePieces('', 3)).toEqual(['']);
    expect(visiblePieces('abcdefg', 3)).toEqual(['abc', 'def', 'g']);
    expect(visiblePieces('ab\u001bcd', 4)).toEqual(['ab', '\\x1b', 'cd']);
    expect(visiblePieces('a😀😀', 3)).toEqual(['a😀', '😀']);
    expect(visiblePieces('x'.repeat(10), 10)).toEqual(['x'.repeat(10)]);
    // Written out with its neighbours in view: an emoji's joiner stays, a lone one is written out.
    expect(visiblePieces('ab👩‍💻cd\u200d', 4)).toEqual(['ab👩', '‍💻c', 'd', '<U+200D>']);
  });
});
