import { MAX_SUMS, lineSums, placeBySums } from '../../src/diff/line-sums';
import { applyHunks, buildHunks } from '../../src/diff/hunks';
import { placeHunks } from '../../src/diff/rebase';
import { locateHunks, undoOf } from '../../src/activity/undo-data';
import { parseActivity, serializeActivity } from '../../src/activity/activity-codec';
import type { ActivityEntry } from '../../src/activity/types';
import { randomEdit, randomNote, seededRandom } from '../harness/proposals-random';

/**
 * A text's line fingerprint and three-way placement against it (diff/line-sums.ts): what lets a
 * revert of a patch-only activity entry follow the proposals' rebase rule without the text the
 * agent left.
 */

const edit = (before: string, after: string) => ({ kind: 'edit' as const, tool: 'write_note', path: 'n.md', before, after });

/** The undo of `before` → `after` placed on `current`: the text it gives, or the indices left out. */
function revertOn(before: string, after: string, current: string): { text: string; left: number[] } {
  const { ready, left } = locateHunks(undoOf(edit(before, after)).undo, current);
  return { text: applyHunks(current, ready), left };
}

describe('line sums', () => {
  test("the same lines elsewhere are not the agent's: a hunk whose own lines changed is left, wherever else they occur (verifier)", () => {
    const before = 'a\nx\nb\nc\nd\ne\na\nx\nb\n';
    const after = 'a\ny\nb\nc\nd\ne\na\nx\nb\n';
    expect(revertOn(before, after, 'a\nz\nb\nc\nd\ne\na\ny\nb\n')).toEqual({ text: 'a\nz\nb\nc\nd\ne\na\ny\nb\n', left: [0] });
    // The lines around it changed (the context), or a line put right next to it: left too, as a proposal's hunk goes stale.
    expect(revertOn(before, after, 'A\ny\nb\nc\nd\ne\na\nx\nb\n').left).toEqual([0]);
    expect(revertOn(before, after, 'a\nnew\ny\nb\nc\nd\ne\na\nx\nb\n').left).toEqual([0]);
    // Moved down by lines put above: undone where it moved to.
    expect(revertOn(before, after, 'top\na\ny\nb\nc\nd\ne\na\nx\nb\n')).toEqual({ text: 'top\na\nx\nb\nc\nd\ne\na\nx\nb\n', left: [] });
    // The other copy of what the undo makes (a, x, b) edited alike: which one is the agent's cannot be told, so left.
    expect(revertOn(before, after, 'top\na\ny\nb\nc\nd\ne\na\ny\nb\n').left).toEqual([0]);
  });

  test("agrees with the proposals' rebase on random notes: a hunk is undone only where placeHunks on the whole texts places it, at the same offset", () => {
    const rand = seededRandom(28);
    let placed = 0;
    for (let i = 0; i < 3000; i++) {
      const before = randomNote(rand);
      const after = randomEdit(rand, before);
      const current = randomEdit(rand, after);
      if (after === before || current === after) continue;
      // At the end of a text without a final line break buildHunks' own rule for that break joins the last line to a
      // change before it (and may even report it replaced by itself), so the two diffs can align the end differently:
      // compared on notes that end in a line break.
      if (![before, after, current].every((t) => t === '' || t.endsWith('\n'))) continue;
      const { ready, left } = locateHunks(undoOf(edit(before, after)).undo, current);
      const rebased = placeHunks(after, current, buildHunks(after, before));
      const fresh = rebased.filter((r) => !r.stale).map((r) => [r.from, r.inserted]);
      expect([before, after, current, ready.map((h) => [h.from, h.inserted])]).toEqual([before, after, current, fresh]);
      placed += ready.length;
      expect(ready.length + left.length).toBe(rebased.length);
    }
    expect(placed).toBeGreaterThan(200);
  });

  test('a long note is summed in about MAX_SUMS chunks; a changed chunk anywhere leaves it', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i} of a long note\n`);
    const before = lines.join('');
    const after = [...lines.slice(0, 10_000), 'the agent line\n', ...lines.slice(10_001)].join('');
    const sums = lineSums(after);
    expect(sums?.k).toBeGreaterThan(1);
    expect(sums?.sums.split(' ').length).toBeLessThanOrEqual(2 * MAX_SUMS);
    const far = ['put on top\n', ...after.split(/(?<=\n)/).slice(0, 100), 'user line\n', ...after.split(/(?<=\n)/).slice(100)].join('');
    // A chunk of many lines the user changed, however far, may have held another copy of the agent's lines: left (conservative).
    expect(revertOn(before, after, far)).toEqual({ text: far, left: [0] });
    const near = after.replace('line 10001 of a long note\n', "line 10001, the user's\n");
    expect(revertOn(before, after, near)).toEqual({ text: near, left: [0] });
  });

  test('notes whose lines end in \\r alone are summed by those lines', () => {
    const before = 'one\rtwo\rthree\rtwo\r';
    const after = 'one\rTWO\rthree\rtwo\r';
    expect(lineSums(after)?.sums.split(' ')).toHaveLength(4);
    expect(revertOn(before, after, 'zero\rone\rTWO\rthree\rtwo\r').text).toBe('zero\rone\rtwo\rthree\rtwo\r');
    expect(revertOn(before, after, 'one\rTW0\rthree\rTWO\r').left).toEqual([0]);
  });

  test('sums that do not parse, or ranges past their end, place nothing', () => {
    expect(placeBySums({ k: 1, sums: 'zz' }, 'a\n', [{ from: 0, to: 2 }])).toEqual([null]);
    expect(placeBySums({ k: 0, sums: '2.00000000' }, 'a\n', [{ from: 0, to: 2 }])).toEqual([null]);
    const sums = lineSums('a\nb\n');
    expect(
      sums &&
        placeBySums(sums, 'a\nb\n', [
          { from: 2, to: 4 },
          { from: 2, to: 9 },
        ]),
    ).toEqual([2, null]);
    expect(lineSums('')).toEqual({ k: 1, sums: '' });
  });

  test('an entry logged without sums (before they were kept) is reverted only exact; the log file keeps and checks them', () => {
    const { undo } = undoOf(edit('a\nb\n', 'a\nB\n'));
    expect(locateHunks({ patch: undo.patch }, 'top\na\nB\n')).toEqual({ ready: [], left: [0] });
    expect(locateHunks(undo, 'top\na\nB\n').left).toEqual([]);
    const entry = {
      id: 'a_1',
      at: '2026-12-06T00:00:00.000Z',
      key_id: 'k',
      key_label: 'K',
      key_roots: [],
      session: null,
      tool: 'write_note',
      kind: 'edit',
      path: 'n.md',
      created: 1796500000000,
      hash_before: null,
      hash_after: null,
      via: 'agent',
      undo,
    } as ActivityEntry;
    expect(parseActivity(serializeActivity([entry]))).toEqual([entry]);
    expect(() => parseActivity(serializeActivity([{ ...entry, undo: { ...undo, after_sums: { k: 'x' } } } as never]))).toThrow(
      '"undo.after_sums" must be {k, sums}',
    );
    expect(() => parseActivity(serializeActivity([{ ...entry, created: 'yesterday' } as never]))).toThrow('"created" must be a time in ms');
  });
});
