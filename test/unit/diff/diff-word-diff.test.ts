import { WORD_DIFF_MAX_CHARS, WORD_DIFF_MAX_EDIT, wordDiff } from '../../../src/diff/word-diff';
import type { WordPart } from '../../../src/diff/types';
import { randomLine, seededRandom } from '../../harness/edits/proposals-random';

/** The texts the parts rebuild: [same + removed, same + inserted]. */
function sides(parts: WordPart[]): [string, string] {
  const join = (kind: WordPart['kind']) =>
    parts
      .filter((p) => p.kind === 'same' || p.kind === kind)
      .map((p) => p.text)
      .join('');
  return [join('removed'), join('inserted')];
}

describe('wordDiff', () => {
  test('one changed word between unchanged ones', () => {
    expect(wordDiff('the quick fox\n', 'the slow fox\n')).toEqual([
      { kind: 'same', text: 'the ' },
      { kind: 'removed', text: 'quick' },
      { kind: 'inserted', text: 'slow' },
      { kind: 'same', text: ' fox\n' },
    ]);
  });

  test('whitespace between changed words stays a same part; a trailing run is one part', () => {
    expect(wordDiff('a b c', 'a x y')).toEqual([
      { kind: 'same', text: 'a ' },
      { kind: 'removed', text: 'b' },
      { kind: 'inserted', text: 'x' },
      { kind: 'same', text: ' ' },
      { kind: 'removed', text: 'c' },
      { kind: 'inserted', text: 'y' },
    ]);
    expect(wordDiff('keep old words', 'keep')).toEqual([
      { kind: 'same', text: 'keep' },
      { kind: 'removed', text: ' old words' },
    ]);
  });

  test('pure insertion and pure removal', () => {
    expect(wordDiff('', 'new line\n')).toEqual([{ kind: 'inserted', text: 'new line\n' }]);
    expect(wordDiff('gone\n', '')).toEqual([{ kind: 'removed', text: 'gone\n' }]);
    expect(wordDiff('', '')).toEqual([]);
    expect(wordDiff('same', 'same')).toEqual([{ kind: 'same', text: 'same' }]);
  });

  test('emoji stay whole and CJK characters are compared one by one', () => {
    expect(wordDiff('ok 😀\n', 'ok 😃\n')).toEqual([
      { kind: 'same', text: 'ok ' },
      { kind: 'removed', text: '😀' },
      { kind: 'inserted', text: '😃' },
      { kind: 'same', text: '\n' },
    ]);
    expect(wordDiff('日本語', '日本人')).toEqual([
      { kind: 'same', text: '日本' },
      { kind: 'removed', text: '語' },
      { kind: 'inserted', text: '人' },
    ]);
  });

  test('CRLF line breaks survive in the parts', () => {
    expect(sides(wordDiff('a b\r\nc\r\n', 'a B\r\nc\r\n'))).toEqual(['a b\r\nc\r\n', 'a B\r\nc\r\n']);
  });

  test(`beyond ${WORD_DIFF_MAX_CHARS} chars in total it is one removed and one inserted part`, () => {
    const removed = 'word '.repeat(2000);
    const inserted = 'other '.repeat(2000);
    expect(removed.length + inserted.length).toBeGreaterThan(WORD_DIFF_MAX_CHARS);
    expect(wordDiff(removed, inserted)).toEqual([
      { kind: 'removed', text: removed },
      { kind: 'inserted', text: inserted },
    ]);
    expect(wordDiff('x'.repeat(WORD_DIFF_MAX_CHARS + 1), '')).toEqual([{ kind: 'removed', text: 'x'.repeat(WORD_DIFF_MAX_CHARS + 1) }]);
    const atCap = 'y'.repeat(WORD_DIFF_MAX_CHARS / 2);
    expect(wordDiff(atCap, atCap)).toEqual([{ kind: 'same', text: atCap }]);
  });

  test(`more than ${WORD_DIFF_MAX_EDIT} changed tokens: one removed and one inserted part`, () => {
    const removed = 'aa '.repeat(WORD_DIFF_MAX_EDIT);
    const inserted = 'bb '.repeat(WORD_DIFF_MAX_EDIT);
    expect(removed.length + inserted.length).toBeLessThan(WORD_DIFF_MAX_CHARS);
    expect(wordDiff(removed, inserted)).toEqual([
      { kind: 'removed', text: removed },
      { kind: 'inserted', text: inserted },
    ]);
    expect(wordDiff(removed, removed.replace(/aa $/, 'bb '))).toEqual([
      { kind: 'same', text: removed.slice(0, -3) },
      { kind: 'removed', text: 'aa' },
      { kind: 'inserted', text: 'bb' },
      { kind: 'same', text: ' ' },
    ]);
  });

  test('over 2,000 seeded random pairs: parts rebuild both sides, none empty, no two alike in a row', () => {
    const rand = seededRandom(99);
    for (let i = 0; i < 2000; i++) {
      const removed = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => randomLine(rand)).join(rand() < 0.5 ? '\n' : '\r\n');
      const inserted = rand() < 0.5 ? removed.replace(/[a-z]+/, 'changed') : randomLine(rand);
      const parts = wordDiff(removed, inserted);
      expect(sides(parts)).toEqual([removed, inserted]);
      for (const [k, part] of parts.entries()) {
        expect(part.text).not.toBe('');
        if (k > 0) expect(part.kind).not.toBe(parts[k - 1].kind);
        if (k > 0 && part.kind === 'removed') expect(parts[k - 1].kind).toBe('same');
      }
    }
  });
});
