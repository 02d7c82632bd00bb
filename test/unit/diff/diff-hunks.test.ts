import { LINE_DIFF_MAX_EDIT, applyHunks, buildHunks } from '../../../src/diff/hunks';
import { crLines, hunkAsLines } from '../../../src/diff/hunk-lines';
import { isCrNote } from '../../../src/vault/content/text/line-endings';
import { locateHunks, undoOf } from '../../../src/activity/undo-data';
import { randomEdit, randomNote, seededRandom } from '../../harness/edits/proposals-random';

/** The hunks without their index, for compact expectations. */
function ranges(base: string, proposed: string): Array<[number, number, string, string]> {
  return buildHunks(base, proposed).map((h) => [h.from, h.to, h.removed, h.inserted]);
}

describe('buildHunks', () => {
  test('one replaced line in the middle', () => {
    expect(buildHunks('a\nb\nc\n', 'a\nB\nc\n')).toEqual([{ index: 0, from: 2, to: 4, removed: 'b\n', inserted: 'B\n' }]);
  });

  test('separate changes are separate hunks, numbered in order', () => {
    expect(ranges('a\nb\nc\nd\n', 'A\nb\nc\nD\nE\n')).toEqual([
      [0, 2, 'a\n', 'A\n'],
      [6, 8, 'd\n', 'D\nE\n'],
    ]);
    expect(buildHunks('a\nb\nc\nd\n', 'A\nb\nc\nD\n').map((h) => h.index)).toEqual([0, 1]);
  });

  test('a pure insertion sits at a line start, or at the end of the text', () => {
    expect(ranges('a\nb\n', 'a\nnew\nb\n')).toEqual([[2, 2, '', 'new\n']]);
    expect(ranges('a\nb\n', 'a\nb\nend\n')).toEqual([[4, 4, '', 'end\n']]);
    expect(ranges('a\nb\n', 'top\na\nb\n')).toEqual([[0, 0, '', 'top\n']]);
  });

  test('a pure deletion has an empty insertion', () => {
    expect(ranges('a\nb\nc\n', 'a\nc\n')).toEqual([[2, 4, 'b\n', '']]);
  });

  test('empty base and empty proposed', () => {
    expect(ranges('', 'x\ny')).toEqual([[0, 0, '', 'x\ny']]);
    expect(ranges('x\ny', '')).toEqual([[0, 3, 'x\ny', '']]);
    expect(buildHunks('', '')).toEqual([]);
  });

  test('identical texts have no hunks', () => {
    expect(buildHunks('same\r\ntext', 'same\r\ntext')).toEqual([]);
  });

  test('only the final newline changed: that line break alone is the change', () => {
    expect(ranges('a\nb\n', 'a\nb')).toEqual([[3, 4, '\n', '']]);
    expect(ranges('a\nb', 'a\nb\n')).toEqual([[3, 3, '', '\n']]);
    expect(ranges('a\r\nb\r\n', 'a\r\nb')).toEqual([[4, 6, '\r\n', '']]);
    expect(ranges('a\r\nb', 'a\r\nb\r\n')).toEqual([[4, 4, '', '\r\n']]);
    expect(ranges('x\nb', 'y\nb\n')).toEqual([
      [0, 2, 'x\n', 'y\n'],
      [3, 3, '', '\n'],
    ]);
  });

  test('adding lines after a last line without a final newline is an insertion, not a replaced line', () => {
    expect(ranges('hello', 'hello\nworld')).toEqual([[5, 5, '', '\nworld']]);
    expect(ranges('hello', 'hello\nworld\n')).toEqual([[5, 5, '', '\nworld\n']]);
    expect(ranges('a\nb', 'a\nb\nc\n')).toEqual([[3, 3, '', '\nc\n']]);
    expect(ranges('a\n', 'a\nb')).toEqual([[2, 2, '', 'b']]);
  });

  test('removing the last lines takes the line break before them, so the kept line is not replaced', () => {
    expect(ranges('a\nb\nc', 'a\nb')).toEqual([[3, 5, '\nc', '']]);
    expect(ranges('a\nb\n', 'a')).toEqual([[1, 4, '\nb\n', '']]);
    expect(ranges('a\nb', 'a\nc')).toEqual([[2, 3, 'b', 'c']]);
  });

  test('CRLF is kept byte for byte, and a changed line ending is a change', () => {
    expect(ranges('a\r\nb\r\nc\r\n', 'a\r\nB\r\nc\r\n')).toEqual([[3, 6, 'b\r\n', 'B\r\n']]);
    expect(ranges('a\r\nb\r\n', 'a\nb\r\n')).toEqual([[0, 3, 'a\r\n', 'a\n']]);
  });

  test('a BOM is part of the first line', () => {
    expect(ranges('\uFEFFa\nb\n', '\uFEFFa\nB\n')).toEqual([[3, 5, 'b\n', 'B\n']]);
    expect(ranges('\uFEFFa\n', 'a\n')).toEqual([[0, 3, '\uFEFFa\n', 'a\n']]);
  });

  test('offsets are UTF-16 code units (emoji, CJK)', () => {
    expect(ranges('😀\n日本\n', '😀\n中国\n')).toEqual([[3, 6, '日本\n', '中国\n']]);
  });

  test(`past ${LINE_DIFF_MAX_EDIT} changed lines: one hunk between the shared head and tail lines`, () => {
    const middle = (tag: string) => Array.from({ length: LINE_DIFF_MAX_EDIT }, (_, i) => `${tag} ${i}\n`).join('');
    const before = 'head\n' + middle('old') + 'tail';
    const after = 'head\n' + middle('new') + 'tail';
    expect(buildHunks(before, after)).toEqual([
      { index: 0, from: 5, to: before.length - 4, removed: middle('old'), inserted: middle('new') },
    ]);
    expect(ranges(middle('old'), 'x\n' + middle('new'))).toEqual([[0, middle('old').length, middle('old'), 'x\n' + middle('new')]]);
    expect(ranges('head\n' + middle('old'), 'head\n' + middle('new') + 'extra')).toEqual([
      [5, 5 + middle('old').length, middle('old'), middle('new') + 'extra'],
    ]);
    expect(applyHunks(before, buildHunks(before, after.replace('tail', 'tail\n')))).toBe(after.replace('tail', 'tail\n'));
  });

  test('round trip over 3,000 seeded random edits, removed text and line starts hold', () => {
    const rand = seededRandom(20240611);
    for (let i = 0; i < 3000; i++) {
      const base = randomNote(rand);
      const proposed = rand() < 0.05 ? '' : randomEdit(rand, base);
      const hunks = buildHunks(base, proposed);
      const context = `case ${i}: ${JSON.stringify(base)} -> ${JSON.stringify(proposed)}`;
      expect([context, applyHunks(base, hunks)]).toEqual([context, proposed]);
      for (const [k, h] of hunks.entries()) {
        expect(h.index).toBe(k);
        expect(base.slice(h.from, h.to)).toBe(h.removed);
        // Line starts, except where the last line's missing or removed final line break is the change.
        const atLastLine = h.to === base.length && !base.slice(0, h.from).endsWith('\n');
        expect([context, h.from === 0 || base[h.from - 1] === '\n' || atLastLine]).toEqual([context, true]);
        expect(h.to === 0 || h.to === base.length || base[h.to - 1] === '\n').toBe(true);
        if (k > 0) expect(h.from).toBeGreaterThanOrEqual(hunks[k - 1].to);
      }
      if (base === proposed) expect(hunks).toEqual([]);
    }
  });
});

describe('applyHunks', () => {
  test('applies hunks given in any order', () => {
    const text = 'a\nb\nc\n';
    const edits = [
      { from: 4, to: 6, inserted: 'C\n' },
      { from: 0, to: 0, inserted: 'top\n' },
      { from: 0, to: 2, inserted: 'A\n' },
    ];
    expect(applyHunks(text, edits)).toBe('top\nA\nb\nC\n');
  });

  test('no hunks returns the text unchanged', () => {
    expect(applyHunks('x\r\n', [])).toBe('x\r\n');
  });

  test('throws on overlapping ranges and on two insertions at one point', () => {
    expect(() =>
      applyHunks('a\nb\nc\n', [
        { from: 0, to: 4, inserted: '' },
        { from: 2, to: 6, inserted: '' },
      ]),
    ).toThrow(/overlaps/);
    expect(() =>
      applyHunks('a\n', [
        { from: 2, to: 2, inserted: 'x' },
        { from: 2, to: 2, inserted: 'y' },
      ]),
    ).toThrow(/overlaps/);
  });

  test('throws on out-of-range, reversed, or fractional offsets', () => {
    expect(() => applyHunks('abc', [{ from: 2, to: 4, inserted: '' }])).toThrow(/out of range for a text of 3 chars/);
    expect(() => applyHunks('abc', [{ from: -1, to: 1, inserted: '' }])).toThrow(/out of range/);
    expect(() => applyHunks('abc', [{ from: 2, to: 1, inserted: '' }])).toThrow(/out of range/);
    expect(() => applyHunks('abc', [{ from: 0.5, to: 1, inserted: '' }])).toThrow(/out of range/);
  });
});

describe('buildHunks on a note whose lines end in \\r alone', () => {
  test("a change is hunks of its lines, which hold the note's own \\r", () => {
    expect(ranges('a\rb\rc\rd\r', 'A\rb\rc\rD\rE\r')).toEqual([
      [0, 2, 'a\r', 'A\r'],
      [6, 8, 'd\r', 'D\rE\r'],
    ]);
    expect(ranges('a\rb', 'a\rb\rc')).toEqual([[3, 3, '', '\rc']]);
    expect(ranges('a\rb\r', 'a\rb')).toEqual([[3, 4, '\r', '']]);
  });

  test('round-trips byte for byte, also from and to an empty note', () => {
    for (const [base, proposed] of [
      ['x\ry\rz', 'x\rY\rz\r'],
      ['', 'a\rb\r'],
      ['a\rb\r', ''],
      ['\r\r', 'a\r\r'],
    ])
      expect(applyHunks(base, buildHunks(base, proposed))).toBe(proposed);
  });

  test('a lone \\r in a note that has \\n stays line content, as for the write tools', () => {
    expect(ranges('a\rb\nc\n', 'a\rB\nc\n')).toEqual([[0, 4, 'a\rb\n', 'a\rB\n']]);
  });

  test("hunkAsLines shows the lines and where they start; crLines is the write tools' rule", () => {
    const base = 'a\rb\rc\r';
    const [h] = buildHunks(base, 'a\rB\rc\r');
    expect(hunkAsLines(base, h)).toEqual({ line: 2, removed: 'b\n', inserted: 'B\n' });
    const [end] = buildHunks('a\rb', 'a\rb\rc');
    expect(hunkAsLines('a\rb', end)).toEqual({ line: 3, removed: '', inserted: 'c' });
    for (const text of ['a\rb', 'a\r\nb', 'a\nb\r', 'ab', '', '\r']) expect([text, crLines(text)]).toEqual([text, isCrNote(text)]);
  });

  test('a revert of a logged change finds its hunks by their \\r lines after the note changed elsewhere', () => {
    const before = 'one\rtwo\rthree\rfour\rfive\r';
    const after = 'one\rTWO\rthree\rfour\rfive\r';
    const { undo } = undoOf({ kind: 'edit', tool: 'edit_note', path: 'n.md', before, after });
    expect(undo.patch?.map((h) => h.line)).toEqual([2]);
    const current = 'one\rTWO\rthree\rfour\rFIVE\r';
    const { ready, left } = locateHunks(undo, current);
    expect(left).toEqual([]);
    expect(applyHunks(current, ready)).toBe('one\rtwo\rthree\rfour\rFIVE\r');
  });
});
