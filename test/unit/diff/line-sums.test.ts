import { MAX_SUMS, lineSums, placeBySums, uniqueRegions } from '../../../src/diff/line-sums';
import { applyHunks, buildHunks } from '../../../src/diff/hunks';
import { placeHunks } from '../../../src/diff/rebase';
import { locateHunks, undoOf } from '../../../src/activity/undo-data';
import { parseActivity, serializeActivity } from '../../../src/activity/activity-codec';
import type { ActivityEntry } from '../../../src/activity/types';
import { pick, randomEdit, randomLine, randomNote, seededRandom, splitLines } from '../../harness/edits/proposals-random';

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

  test('a long note is summed in about MAX_SUMS chunks; a change whose lines occur once is undone whatever chunk the user changed far from it', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i} of a long note\n`);
    const before = lines.join('');
    const after = [...lines.slice(0, 10_000), 'the agent line\n', ...lines.slice(10_001)].join('');
    const sums = lineSums(after);
    expect(sums?.k).toBeGreaterThan(1);
    expect(sums?.sums.split(' ').length).toBeLessThanOrEqual(2 * MAX_SUMS);
    expect(undoOf(edit(before, after)).undo.patch).toEqual([expect.objectContaining({ unique: true })]);
    const far = ['put on top\n', ...after.split(/(?<=\n)/).slice(0, 100), 'user line\n', ...after.split(/(?<=\n)/).slice(100)].join('');
    // Undone where it is; the user's lines stay.
    expect(revertOn(before, after, far)).toEqual({ text: far.replace('the agent line\n', 'line 10000 of a long note\n'), left: [] });
    const rewritten = after.replace('line 17 of a long note\n', 'line 17, rewritten\n').replace('line 19999 of a long note\n', '');
    expect(revertOn(before, after, rewritten)).toEqual({
      text: rewritten.replace('the agent line\n', 'line 10000 of a long note\n'),
      left: [],
    });
    // A change in its chunk or the chunk on either side (here the very next line) still leaves it.
    const near = after.replace('line 10001 of a long note\n', "line 10001, the user's\n");
    expect(revertOn(before, after, near)).toEqual({ text: near, left: [0] });
    // Logged before the mark was kept (no `unique`): any changed chunk leaves it, as then.
    const { undo } = undoOf(edit(before, after));
    const old = { ...undo, patch: undo.patch?.map(({ unique: _, ...h }) => h) };
    expect(locateHunks(old, far)).toEqual({ ready: [], left: [0] });
  });

  test("long notes, random: the fingerprint's chunks never undo a hunk that the rule on the whole texts (placeHunks) would not undo there", () => {
    const rand = seededRandom(29);
    let placed = 0;
    let pastChanged = 0;
    for (let i = 0; i < 150; i++) {
      // 300-600 lines, half of them from a few words (so regions repeat), half numbered (so some are unique).
      const n = 300 + pick(rand, 300);
      const lines = Array.from({ length: n }, (_, j) => (rand() < 0.5 ? `${randomLine(rand)}\n` : `n${j}\n`));
      const before = lines.join('');
      const after = randomEdit(rand, before);
      let current = randomEdit(rand, after);
      // Sometimes the user also pastes a copy of a few lines near the agent's change.
      if (rand() < 0.5) {
        const at = splitLines(current);
        const from = pick(rand, at.length);
        const copy = at.slice(from, from + 1 + pick(rand, 4));
        at.splice(Math.max(0, from + pick(rand, 9) - 4), 0, ...copy);
        current = at.join('');
      }
      if (after === before || current === after || !after.endsWith('\n') || !current.endsWith('\n')) continue;
      const { ready } = locateHunks(undoOf(edit(before, after)).undo, current);
      const whole = placeHunks(after, current, buildHunks(after, before)).filter((r) => !r.stale);
      for (const h of ready) {
        const same = whole.some((w) => w.from === h.from && w.inserted === h.inserted);
        expect([before, after, current, h.from, same]).toEqual([before, after, current, h.from, true]);
      }
      placed += ready.length;
      if (ready.length > 0 && buildHunks(after, current).some((h) => h.to > h.from)) pastChanged++;
    }
    expect(placed).toBeGreaterThan(20);
    expect(pastChanged).toBeGreaterThan(10);
  });

  test('a long note whose change has its lines with their neighbours twice keeps the strict rule: any changed chunk leaves it', () => {
    const block = (i: number) => `## Day ${i}\n- [ ] water\n- [ ] feed\n`;
    const lines = Array.from({ length: 400 }, (_, i) => (i === 100 || i === 300 ? block(0) : `line ${i}\n`));
    const before = lines.join('');
    const after = before.replace('- [ ] water', '- [x] water'); // the first copy
    const { undo } = undoOf(edit(before, after));
    expect(lineSums(after)?.k).toBeGreaterThan(1);
    // As left it occurs once, but as the undo makes it (the block unticked) it occurs again lower down.
    expect(undo.patch).toEqual([expect.not.objectContaining({ unique: true })]);
    // The user deleted the ticked block and ticked the second: the note reads as if the second block went.
    const current = after.replace(block(0).replace('[ ] water', '[x] water'), '').replace('- [ ] water', '- [x] water');
    expect(locateHunks(undo, current).left).toEqual([0]);
    // Far from both copies: still left (whether a changed chunk held a copy cannot be told from chunks).
    const far = after.replace('line 5\n', 'line 5!\n');
    expect(locateHunks(undo, far).left).toEqual([0]);
  });

  test("a long note: a copy of the change's lines the user made after it is never undone (pasted far away, or as whole chunks right next to it)", () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `line ${i}\n`);
    const before = lines.join('');
    const after = before.replace('line 1000\n', 'AGENT\n');
    const { undo } = undoOf(edit(before, after));
    expect(undo.patch?.[0].unique).toBe(true);
    // The user pastes the agent's line with its neighbours at the top (other chunks): the original is undone, the copy stays.
    const copy = 'line 999\nAGENT\nline 1001\n';
    const pasted = `${copy}${after}`;
    expect(revertOn(before, after, pasted)).toEqual({ text: `${copy}${before}`, left: [] });
    // The user copies 200 lines around it (whole chunks, the same sums) and pastes them right above the original.
    const at = after.indexOf('line 900\n');
    const end = after.indexOf('line 1100\n');
    const twice = after.slice(0, at) + after.slice(at, end) + after.slice(at);
    const result = revertOn(before, after, twice);
    // Which copy is the agent's cannot be told (both read the same): left as it is, neither undone.
    expect(result).toEqual({ text: twice, left: [0] });
    // The user deleted the original and keeps a copy elsewhere: never undone there.
    const movedCopy = `${copy}${after.replace(copy, 'line 999\nline 1001\n')}`;
    expect(revertOn(before, after, movedCopy)).toEqual({ text: movedCopy, left: [0] });
  });

  test('a long note: CRLF and \\r-only lines, a change on the first or the last line, empty lines around it', () => {
    const lines = (eol: string) => Array.from({ length: 1000 }, (_, i) => `line ${i}${eol}`);
    for (const eol of ['\r\n', '\r']) {
      const before = lines(eol).join('');
      const after = before.replace(`line 500${eol}`, `AGENT${eol}`);
      expect(undoOf(edit(before, after)).undo.patch?.[0].unique).toBe(true);
      const current = after.replace(`line 3${eol}`, `line 3, the user's${eol}`);
      expect(revertOn(before, after, current)).toEqual({ text: before.replace(`line 3${eol}`, `line 3, the user's${eol}`), left: [] });
    }
    const before = lines('\n').join('');
    const edited = (b: string, a: string, current: (t: string) => string) => revertOn(b, a, current(a));
    const tail = (t: string) => t.replace('line 3\n', 'line 3!\n');
    const head = (t: string) => t.replace('line 990\n', 'line 990!\n');
    // The first line (the start of the note stands in for the line before), the last, a line appended without a final break.
    expect(edited(before, `AGENT\n${before.slice('line 0\n'.length)}`, head)).toEqual({ text: head(before), left: [] });
    expect(edited(before, before.replace('line 999\n', 'AGENT\n'), tail)).toEqual({ text: tail(before), left: [] });
    expect(edited(before, `${before}AGENT`, tail)).toEqual({ text: tail(before), left: [] });
    // A paragraph put between two empty lines, where two empty lines follow each other elsewhere: not marked, strict.
    const spaced = before.replace('line 400\n', '\n\n').replace('line 600\n', '\n');
    const para = spaced.replace('line 599\n\n', 'line 599\n\nthe agent\n\n');
    expect(undoOf(edit(spaced, para)).undo.patch?.[0].unique).toBeUndefined();
    expect(edited(spaced, para, tail).left).toEqual([0]);
  });

  test('marking a long note of many alike lines stays within its work bound: past it, no hunk is marked (strict)', () => {
    // 33,333 blocks `a`, `b`, a number: a region from an `a` through its number starts as 33,333 others do.
    const after = Array.from({ length: 33_333 }, (_, i) => `a\nb\n${i}\n`).join('');
    const hunks = (n: number) =>
      Array.from({ length: n }, (_, i) => {
        const from = after.indexOf(`a\nb\n${100 + i}\n`) + 2;
        return { from, to: from + 2, inserted: 'x\n' };
      });
    expect(uniqueRegions(after, hunks(5))).toEqual([true, true, true, true, true]);
    // 40 such hunks pass the bound of candidates to compare: none is marked (a later line might have held a copy of any).
    expect(uniqueRegions(after, hunks(40))).toEqual(Array.from({ length: 40 }, () => false));
    // A line and its neighbours that do repeat, as they are or as the hunk makes them: not marked.
    const twice = `${after}a\nb\n7\n`;
    const seven = twice.indexOf('a\nb\n7\n') + 2;
    expect(uniqueRegions(twice, [{ from: seven, to: seven + 2, inserted: 'x\n' }])).toEqual([false]);
    const made = `${after}a\nx\n7\n`;
    expect(uniqueRegions(made, [{ from: seven, to: seven + 2, inserted: 'x\n' }])).toEqual([false]);
    expect(uniqueRegions(made, [{ from: seven, to: seven + 2, inserted: 'y\n' }])).toEqual([true]);
  });

  test('alike lines are cut into chunks too: the cut is taken on the mixed sum; a fingerprint logged before (no `cut`) is still cut its own way', () => {
    // The low bits of FNV-1a depend only on the low bits of each character: these 600 lines all missed every cut.
    const long = Array.from({ length: 600 }, (_, i) => `- item ${i}: notes on step ${i}\n`).join('');
    const sums = lineSums(long);
    expect(sums).toMatchObject({ k: 4, cut: 'mix' });
    expect(sums?.sums.split(' ').length).toBeGreaterThan(100);
    // The rule before, on the sum itself (32-bit FNV-1a of each line, a chunk ending where it is a multiple of k).
    const fnv = (t: string) => {
      let h = 0x811c9dc5;
      for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 0x01000193);
      return h >>> 0;
    };
    const before = (text: string, k: number): string => {
      const out: string[] = [];
      let chunk = '';
      splitLines(text).forEach((line, i, all) => {
        chunk += line;
        if (fnv(line) % k !== 0 && i !== all.length - 1) return;
        out.push(`${chunk.length.toString(36)}.${fnv(chunk).toString(16).padStart(8, '0')}`);
        chunk = '';
      });
      return out.join(' ');
    };
    expect(before(long, 4).split(' ')).toHaveLength(1);
    const text = Array.from({ length: 600 }, (_, i) => `line ${i}\n`).join('');
    const at = text.indexOf('line 300\n');
    const range = { from: at, to: at + 9 };
    // A line put on top (one that ends a chunk by that rule): the old fingerprint, cut its own way, still finds the range below it.
    const line = Array.from({ length: 100 }, (_, j) => `top ${j}\n`).find((l) => fnv(l) % 4 === 0) ?? '';
    const top = `${line}${text}`;
    expect(placeBySums({ k: 4, sums: before(text, 4) }, top, [range])).toEqual([at + line.length]);
    expect(placeBySums({ k: 4, sums: before(text, 4), cut: 'mix' }, top, [range])).toEqual([null]);
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
      '"undo.after_sums" must be {k, sums, cut?}',
    );
    expect(() => parseActivity(serializeActivity([{ ...entry, created: 'yesterday' } as never]))).toThrow('"created" must be a time in ms');
    // The marks of a long note's fingerprint: `cut` names its rule, `unique` is true or false.
    const long = { ...entry, undo: { ...undo, after_sums: { k: 2, sums: '', cut: 'mix' as const } } };
    expect(parseActivity(serializeActivity([long]))).toEqual([long]);
    expect(() =>
      parseActivity(serializeActivity([{ ...long, undo: { ...long.undo, after_sums: { k: 2, sums: '', cut: 'low' } } } as never])),
    ).toThrow('"undo.after_sums" must be {k, sums, cut?}');
    const marked = { ...entry, undo: { ...undo, patch: undo.patch?.map((h) => ({ ...h, unique: 'yes' })) } };
    expect(() => parseActivity(serializeActivity([marked as never]))).toThrow('"undo.patch" must be a list of');
  });
});
