import { visiblePieces, visibleText } from '../../../src/diff/visible-text';

describe('visibleText', () => {
  test('writes out C0 and C1 controls, DEL, bidi controls and separators; keeps tab, line feed and other text', () => {
    expect(visibleText('a\u001b[8mb\rc\u0008d\u007fe\u009bf\u0085g')).toBe('a\\x1b[8mb\\rc\\x08d\\x7fe<U+009B>f<U+0085>g');
    expect(visibleText('\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2028\u2029')).toBe(
      '<U+202A><U+202B><U+202C><U+202D><U+202E><U+2066><U+2067><U+2068><U+2069><U+2028><U+2029>',
    );
    expect(visibleText('tab\there\nnext é 😀 \u200d \\x1b')).toBe('tab\there\nnext é 😀 \u200d \\x1b');
  });
});

describe('visiblePieces', () => {
  test('cuts a long line into pieces of at most the width, never inside a written-out character or a surrogate pair', () => {
    expect(visiblePieces('', 3)).toEqual(['']);
    expect(visiblePieces('abcdefg', 3)).toEqual(['abc', 'def', 'g']);
    expect(visiblePieces('ab\u001bcd', 4)).toEqual(['ab', '\\x1b', 'cd']);
    expect(visiblePieces('a😀😀', 3)).toEqual(['a😀', '😀']);
    expect(visiblePieces('x'.repeat(10), 10)).toEqual(['x'.repeat(10)]);
  });
});
