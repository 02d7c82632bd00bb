import { applyHunks, buildHunks } from '../../../src/diff/hunks';
import { placeHunks } from '../../../src/diff/rebase';
import type { PlacedHunk } from '../../../src/diff/types';
import { randomEdit, randomNote, seededRandom } from '../../harness/edits/proposals-random';

/** Places the hunks of (base → proposed) on current; returns [from, to, stale] per hunk. */
function placed(base: string, proposed: string, current: string): Array<[number, number, boolean]> {
  return placeHunks(base, current, buildHunks(base, proposed)).map((h) => [h.from, h.to, h.stale]);
}

/** `current` with every non-stale placed hunk applied. */
function applyClean(current: string, hunks: PlacedHunk[]): string {
  return applyHunks(
    current,
    hunks.filter((h) => !h.stale),
  );
}

const base = 'a\nb\nc\nd\ne\nf\ng\n';
// Hunk 0 replaces "c" (offsets 4–6); hunk 1 inserts "new" before "f" (offset 10).
const proposed = 'a\nb\nC\nd\ne\nnew\nf\ng\n';

describe('placeHunks', () => {
  test('when the note has not changed, placement is the identity', () => {
    const hunks = buildHunks(base, proposed);
    expect(placeHunks(base, base, hunks)).toEqual(hunks.map((h) => ({ ...h, stale: false })));
  });

  test('a user edit elsewhere shifts the hunks, which still apply cleanly', () => {
    const current = 'intro\nmore\na\nb\nc\nd\ne\nf\ng\n';
    expect(placed(base, proposed, current)).toEqual([
      [15, 17, false],
      [21, 21, false],
    ]);
    const hunks = placeHunks(base, current, buildHunks(base, proposed));
    expect(hunks.map((h) => current.slice(h.from, h.to))).toEqual(['c\n', '']);
    expect(applyClean(current, hunks)).toBe('intro\nmore\na\nb\nC\nd\ne\nnew\nf\ng\n');
  });

  test('a user edit between two hunks shifts only the later one', () => {
    const current = 'a\nb\nc\nd\nD2\ne\nf\ng\n';
    expect(placed(base, proposed, current)).toEqual([
      [4, 6, false],
      [13, 13, false],
    ]);
    expect(applyClean(current, placeHunks(base, current, buildHunks(base, proposed)))).toBe('a\nb\nC\nd\nD2\ne\nnew\nf\ng\n');
  });

  test('a user edit inside a replacement hunk makes it stale, spanning the new text', () => {
    expect(placed(base, proposed, 'a\nb\ncc typed\nd\ne\nf\ng\n')).toEqual([
      [4, 13, true],
      [17, 17, false],
    ]);
  });

  test('a user edit of the line just before or just after a replacement hunk makes it stale', () => {
    expect(placed(base, proposed, 'a\nB!\nc\nd\ne\nf\ng\n')).toEqual([
      [5, 7, true],
      [11, 11, false],
    ]);
    expect(placed(base, proposed, 'a\nb\nc\nD!\ne\nf\ng\n')).toEqual([
      [4, 6, true],
      [11, 11, false],
    ]);
    // A line inserted right before it touches it too; two lines away does not.
    expect(placed(base, proposed, 'a\nb\nx\nc\nd\ne\nf\ng\n')).toEqual([
      [4, 8, true],
      [12, 12, false],
    ]);
    expect(placed(base, proposed, 'a\nx\nb\nc\nd\ne\nf\ng\n')).toEqual([
      [6, 8, false],
      [12, 12, false],
    ]);
  });

  test('an insertion hunk is stale when a line next to it changes or text is inserted at its point', () => {
    expect(placed(base, proposed, 'a\nb\nc\nd\nE\nf\ng\n')[1]).toEqual([10, 10, true]);
    expect(placed(base, proposed, 'a\nb\nc\nd\ne\nF\ng\n')[1]).toEqual([10, 10, true]);
    expect(placed(base, proposed, 'a\nb\nc\nd\ne\nmine\nf\ng\n')[1]).toEqual([10, 15, true]);
    expect(placed(base, proposed, 'a\nb\nc\nd\ne\nf\nG\n')[1]).toEqual([10, 10, false]);
  });

  test('the user deleting the whole region makes both hunks stale, collapsed where it was', () => {
    expect(placed(base, proposed, 'a\ng\n')).toEqual([
      [2, 2, true],
      [2, 2, true],
    ]);
    expect(placed(base, proposed, '')).toEqual([
      [0, 0, true],
      [0, 0, true],
    ]);
  });

  test('the user appending at the end leaves hunks in the middle alone', () => {
    expect(placed(base, proposed, base + 'h\ni\n')).toEqual([
      [4, 6, false],
      [10, 10, false],
    ]);
  });

  test('an append hunk is stale when the user also appended', () => {
    expect(placed(base, base + 'agent\n', base + 'user\n')).toEqual([[14, 19, true]]);
    expect(placed(base, base + 'agent\n', 'A\n' + base.slice(2))).toEqual([[14, 14, false]]);
  });

  test("a proposal's append goes after lines appended since (afterAppends); a change of the last line or lines added inside still conflict", () => {
    const place = (proposed: string, current: string) =>
      placeHunks(base, current, buildHunks(base, proposed), { afterAppends: true }).map((h) => [h.from, h.to, h.stale]);
    // Another append accepted, or the user's new last lines: this one lands after them, and applying it keeps both.
    expect(place(base + 'agent\n', base + 'first\n')).toEqual([[20, 20, false]]);
    const [hunk] = placeHunks(base, base + 'first\n', buildHunks(base, base + 'agent\n'), { afterAppends: true });
    expect(applyHunks(base + 'first\n', [hunk])).toBe(base + 'first\nagent\n');
    // The last line itself changed, or lines went in before the end: still stale, as without the option.
    expect(place(base + 'agent\n', base.slice(0, -2) + 'G\n')[0][2]).toBe(true);
    expect(place(base + 'agent\n', base.slice(0, -2) + 'mine\ng\n')[0][2]).toBe(false);
    expect(place(base.slice(0, 10) + 'x\n' + base.slice(10), base.slice(0, 10) + 'mine\n' + base.slice(10))[0][2]).toBe(true);
    // Lines added since without a final line break: the append would join their last line, so it stays a conflict.
    expect(place(base + 'agent\n', base + 'typed')[0][2]).toBe(true);
    // A note without a final line break: the append rewrites its last line, so it stays a conflict.
    expect(placeHunks('a\nb', 'a\nb\nc', buildHunks('a\nb', 'a\nb\nd'), { afterAppends: true })[0].stale).toBe(true);
  });

  test('a rewrite past the line-diff cap makes hunks inside it stale and leaves the shared head alone', () => {
    const body = (tag: string) => Array.from({ length: 2500 }, (_, i) => `${tag} ${i}\n`).join('');
    const before = 'keep0\nkeep1\n' + body('old') + 'keepZ\n';
    const agent = 'KEEP0\nkeep1\n' + body('old').replace('old 1000\n', 'agent\n') + 'keepZ\n';
    const current = 'keep0\nkeep1\n' + body('user') + 'keepZ\n';
    expect(placed(before, agent, current)).toEqual([
      [0, 6, false],
      [12, 12 + body('user').length, true],
    ]);
  });

  test('CRLF notes shift byte for byte', () => {
    const crlfBase = 'one\r\ntwo\r\nthree\r\n';
    const current = 'zero\r\none\r\ntwo\r\nthree\r\n';
    const hunks = placeHunks(crlfBase, current, buildHunks(crlfBase, 'one\r\ntwo\r\nTHREE\r\n'));
    expect(hunks).toEqual([{ index: 0, from: 16, to: 23, removed: 'three\r\n', inserted: 'THREE\r\n', stale: false }]);
    expect(applyClean(current, hunks)).toBe('zero\r\none\r\ntwo\r\nTHREE\r\n');
  });

  test('a 10,000-line note with one hunk places it past a user edit far above', () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => `line ${i}\n`);
    const big = lines.join('');
    const bigProposed = big.replace('line 7000\n', 'line seven thousand\n');
    const current = big.replace('line 12\n', 'line twelve, edited\n') + 'appended\n';
    const [hunk] = placeHunks(big, current, buildHunks(big, bigProposed));
    const shift = 'line twelve, edited\n'.length - 'line 12\n'.length;
    expect(hunk).toEqual({
      index: 0,
      from: big.indexOf('line 7000\n') + shift,
      to: big.indexOf('line 7001\n') + shift,
      removed: 'line 7000\n',
      inserted: 'line seven thousand\n',
      stale: false,
    });
    expect(applyHunks(current, [hunk])).toBe(current.replace('line 7000\n', 'line seven thousand\n'));
  });
});

describe('stacking two proposals from the same base', () => {
  const first = 'A\nb\nc\nd\ne\nf\ng\n';
  const second = 'a\nb\nc\nD\ne\nf\nG\n';
  const overlapping = 'a2\nb\nc\nd\ne\nf\ng\n';

  test('accepting the first leaves the second applying cleanly where they do not meet', () => {
    const afterFirst = applyHunks(base, buildHunks(base, first));
    const hunks = placeHunks(base, afterFirst, buildHunks(base, second));
    expect(hunks.map((h) => h.stale)).toEqual([false, false]);
    expect(applyClean(afterFirst, hunks)).toBe('A\nb\nc\nD\ne\nf\nG\n');
  });

  test('a hunk of the second that the first changed is stale, the rest applies', () => {
    const afterFirst = applyHunks(base, buildHunks(base, first));
    const both = 'a2\nb\nc\nd\ne\nf\nG\n';
    const hunks = placeHunks(base, afterFirst, buildHunks(base, both));
    expect(hunks.map((h) => [h.from, h.to, h.stale])).toEqual([
      [0, 2, true],
      [12, 14, false],
    ]);
    expect(applyClean(afterFirst, hunks)).toBe('A\nb\nc\nd\ne\nf\nG\n');
    expect(placeHunks(base, afterFirst, buildHunks(base, overlapping))).toEqual([
      { index: 0, from: 0, to: 2, removed: 'a\n', inserted: 'a2\n', stale: true },
    ]);
  });
});

describe('placement invariant (property test, seeded)', () => {
  test('a non-stale hunk always matches the current text; stale offsets stay in range', () => {
    const rand = seededRandom(7);
    let staleCount = 0;
    let cleanCount = 0;
    for (let i = 0; i < 2500; i++) {
      const b = randomNote(rand);
      const p = randomEdit(rand, b);
      const current = rand() < 0.1 ? b : randomEdit(rand, b);
      const hunks = buildHunks(b, p);
      const result = placeHunks(b, current, hunks);
      const context = `case ${i}: ${JSON.stringify([b, p, current])}`;
      expect([context, result.length]).toEqual([context, hunks.length]);
      for (const h of result) {
        expect([context, 0 <= h.from && h.from <= h.to && h.to <= current.length]).toEqual([context, true]);
        if (h.stale) staleCount++;
        else {
          cleanCount++;
          expect([context, current.slice(h.from, h.to)]).toEqual([context, h.removed]);
          // A line start, or the end of the last line: an insertion there, or a removal of the last lines with the break before them.
          const finalBreak = h.to === current.length && (h.removed === '' || (h.inserted === '' && /^\r?\n/.test(h.removed)));
          expect([context, h.from === 0 || current[h.from - 1] === '\n' || finalBreak]).toEqual([context, true]);
        }
      }
      if (current === b) expect(result).toEqual(hunks.map((h) => ({ ...h, stale: false })));
    }
    expect(staleCount).toBeGreaterThan(100);
    expect(cleanCount).toBeGreaterThan(100);
  });

  test('a hunk whose region (its lines and the line on each side), as in the base or as it makes it, occurs elsewhere where the note changed is stale (verifier, HIGH 1)', () => {
    const stale = (base: string, proposed: string, current: string): boolean[] => placed(base, proposed, current).map((h) => h[2]);
    // The revert of a tick on the first of two alike blocks, after the user deleted it and ticked the second.
    const after = '# Log\n---\n- [x] water\n- [ ] feed\n---\n- [ ] water\n- [ ] feed\n';
    const before = '# Log\n---\n- [ ] water\n- [ ] feed\n---\n- [ ] water\n- [ ] feed\n';
    expect(stale(after, before, '# Log\n---\n- [x] water\n- [ ] feed\n')).toEqual([true]);
    // At the start of the text: the region as left occurs lower down, and the user deleted the first copy.
    expect(
      stale(
        '- [x] water\n- [ ] feed\n---\n- [x] water\n- [ ] feed\n',
        '- [ ] water\n- [ ] feed\n---\n- [x] water\n- [ ] feed\n',
        '- [x] water\n- [ ] feed\n',
      ),
    ).toEqual([true]);
    // A copy the user left alone is still where it was: the hunk is placed.
    expect(stale(after, before, 'top\n# Log\n---\n- [x] water\n- [ ] feed\n---\n- [ ] water\n- [ ] feed\n')).toEqual([false]);
    // The note unchanged: exact, whatever repeats.
    expect(stale(after, before, after)).toEqual([false]);
    // A copy only in the middle of a line is not a copy.
    expect(stale('a\nx\nb\nQa\nx\nb\n', 'a\ny\nb\nQa\nx\nb\n', 'a\nx\nb\nQa\nx\nb!\n')).toEqual([false]);
  });

  test('a hunk whose region the note now holds again, in text a later change made, is stale: which copy is the one cannot be told', () => {
    const stale = (base: string, proposed: string, current: string): boolean[] => placed(base, proposed, current).map((h) => h[2]);
    // The revert of the agent's H: the user pasted P/H/N right above or right below it (the same text either way).
    const after = 'a\nP\nH\nN\nb\nc\n';
    const before = 'a\nP\nX\nN\nb\nc\n';
    expect(stale(after, before, 'a\nP\nH\nN\nP\nH\nN\nb\nc\n')).toEqual([true]);
    // Pasted anywhere else, or made by editing other lines alike: the same.
    expect(stale(after, before, 'P\nH\nN\na\nP\nH\nN\nb\nc\n')).toEqual([true]);
    expect(stale(after, before, 'a\nP\nH\nN\nb\nP\nH\nN\n')).toEqual([true]);
    // A copy of the lines without both neighbours, or of the lines as the undo makes them, is no copy of it: placed.
    expect(placed(after, before, 'a\nP\nH\nN\nb\nH\nN\nP\nX\nN\n')).toEqual([[4, 6, false]]);
    // Overlapping copies: a line put among alike lines next to the agent's.
    expect(stale('x\nP\nP\nP\ny\n', 'x\nP\nQ\nP\ny\n', 'x\nP\nP\nP\nP\ny\n')).toEqual([true, true]);
    // A copy the base held too and no change meets is the base rule's to judge: left alone, it does not stop the hunk.
    expect(stale('P\nH\nN\nz\nP\nH\nN\n', 'P\nX\nN\nz\nP\nH\nN\n', 'top\nP\nH\nN\nz\nP\nH\nN\n')).toEqual([false]);
  });
});
