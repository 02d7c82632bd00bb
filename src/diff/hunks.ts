/**
 * Line-granular hunks between a note's base text and a proposed text
 * (docs/architecture.md#proposals), and applying them. Pure string work, no DOM, no Obsidian: the diff is
 * jsdiff's `diffLines` (Myers), whose tokens are whole lines with their line break (`\n` or
 * `\r\n`, kept byte for byte; a lone `\r` is line content), so offsets always fall on line
 * starts or at the end of the text. Texts whose lines end in `\r` alone are diffed by those
 * lines (see {@link buildHunks}).
 */
import { diffLines } from 'diff';
import { crLines, lfLines } from './hunk-lines';
import type { Hunk } from './types';

/**
 * The most changed lines (removed plus added) `buildHunks` lets jsdiff work through before
 * it falls back to one hunk between the common leading and trailing lines. Myers' diff
 * costs about the square of this: a 10,000-line note rewritten line by line takes ~14 s
 * uncapped, ~0.3 s at this cap (measured on a shared 2-core machine).
 */
export const LINE_DIFF_MAX_EDIT = 2000;

/** The part of a hunk `applyHunks` needs: base offsets `[from, to)` and the replacement. */
export interface HunkEdit {
  from: number;
  to: number;
  inserted: string;
}

/**
 * The hunks that turn `base` into `proposed`, in document order, numbered from 0.
 *
 * Consecutive removed/added runs of `diffLines` form one hunk; hunks are separated by at
 * least one unchanged line, so they never touch. `from`/`to` are UTF-16 offsets in `base`
 * covering whole lines (trailing line break included; the last line may have none),
 * `removed === base.slice(from, to)`, and a pure insertion has `from === to` at a line start
 * or at `base.length`. A BOM is ordinary text of the first line.
 *
 * A last line without a line break is compared as if it had one (as diff tools do), so its
 * missing final newline never makes an unchanged line look removed: `hello` → `hello\nworld`
 * is an insertion of `\nworld` at the end, not `hello` replaced by `hello` and `world`. A
 * change of the final line break itself is its own small hunk when nothing else touches the
 * last line: `a\nb` → `a\nb\n` inserts `\n` at the end, `a\nb\n` → `a\nb` removes the final
 * `\n` (the only hunks whose offsets are not line starts). When more than
 * `LINE_DIFF_MAX_EDIT` lines change, the result is a single hunk spanning everything
 * between the lines the two texts share at their start and at their end.
 * `applyHunks(base, buildHunks(base, proposed)) === proposed`, byte for byte.
 * Identical texts give `[]`. Does not throw.
 *
 * Two texts whose lines end in `\r` alone (together they hold a `\r` and no `\n`: the old Mac
 * notes the write tools edit line by line, hunk-lines.ts crLines) are diffed
 * with each `\r` as the line break, so a change is hunks of lines there too, not one hunk for
 * the whole note; the hunks hold the texts' own `\r`. A lone `\r` in a text that has `\n` stays
 * line content, as for the write tools.
 */
export function buildHunks(base: string, proposed: string): Hunk[] {
  if (!crLines(base, proposed)) return lfHunks(base, proposed);
  // No `\n` in either text: each `\n` of the LF views' hunks stands for a `\r` of the texts.
  const cr = (text: string): string => text.replace(/\n/g, '\r');
  return lfHunks(lfLines(base), lfLines(proposed)).map((h) => ({ ...h, removed: cr(h.removed), inserted: cr(h.inserted) }));
}

/** {@link buildHunks} for texts whose line breaks are `\n` or `\r\n`. */
function lfHunks(base: string, proposed: string): Hunk[] {
  if (base === proposed) return [];
  const baseEnd = missingFinalBreak(base);
  const proposedEnd = missingFinalBreak(proposed);
  const closedBase = base + baseEnd;
  const closedProposed = proposed + proposedEnd;
  const hunks = lineHunks(closedBase, closedProposed).map((h) => openHunk(h, base, baseEnd, proposedEnd, closedProposed));
  const result = applyHunks(base, hunks);
  if (result === proposed) return hunks;
  const last = hunks[hunks.length - 1];
  if (proposed === result + baseEnd && baseEnd !== '' && (!last || last.to < base.length)) {
    return [...hunks, { index: hunks.length, from: base.length, to: base.length, removed: '', inserted: baseEnd }];
  }
  const finalBreak = base.endsWith('\r\n') ? '\r\n' : '\n';
  if (result === proposed + finalBreak && (!last || last.to < base.length - finalBreak.length)) {
    const from = base.length - finalBreak.length;
    return [...hunks, { index: hunks.length, from, to: base.length, removed: finalBreak, inserted: '' }];
  }
  return lineHunks(base, proposed);
}

/** The line break a non-empty text lacks at its end (`\r\n` for a CRLF text), or `''` when it has one or is empty. */
function missingFinalBreak(text: string): string {
  if (text === '' || text.endsWith('\n')) return '';
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/**
 * A hunk of the texts with their final line breaks added (see {@link buildHunks}) mapped
 * back onto the texts themselves: the added breaks are dropped from the hunk's ends, and an
 * insertion after the base's added break becomes an insertion at `base.length` that brings
 * that break along.
 */
function openHunk(h: Hunk, base: string, baseEnd: string, proposedEnd: string, closedProposed: string): Hunk {
  const closedBaseLength = base.length + baseEnd.length;
  if (h.to < closedBaseLength || (baseEnd === '' && proposedEnd === '')) return h;
  // The hunk reaches the end of both texts (nothing after it is common).
  if (h.inserted === '' && proposedEnd !== '') {
    // A deletion of the last lines: the proposed text's added break is the one before them, so remove that break instead.
    const from = h.from - proposedEnd.length;
    return { ...h, from, to: base.length, removed: base.slice(from), inserted: '' };
  }
  let inserted =
    proposedEnd !== '' && closedProposed.endsWith(h.inserted) ? h.inserted.slice(0, h.inserted.length - proposedEnd.length) : h.inserted;
  if (h.from === closedBaseLength && baseEnd !== '') {
    inserted = baseEnd + inserted;
    return { ...h, from: base.length, to: base.length, removed: '', inserted };
  }
  return { ...h, to: base.length, removed: base.slice(h.from, base.length), inserted };
}

/** {@link buildHunks} without the final-line-break rule: the line hunks of jsdiff's `diffLines`. */
function lineHunks(base: string, proposed: string): Hunk[] {
  if (base === proposed) return [];
  const hunks: Hunk[] = [];
  let offset = 0;
  let open: { from: number; removed: string; inserted: string } | null = null;
  const close = (): void => {
    if (!open) return;
    const to = open.from + open.removed.length;
    hunks.push({ index: hunks.length, from: open.from, to, removed: open.removed, inserted: open.inserted });
    open = null;
  };
  const changes = diffLines(base, proposed, { maxEditLength: LINE_DIFF_MAX_EDIT });
  if (!changes) return [outerHunk(base, proposed)];
  for (const change of changes) {
    if (!change.added && !change.removed) {
      close();
      offset += change.value.length;
      continue;
    }
    open ??= { from: offset, removed: '', inserted: '' };
    if (change.removed) {
      open.removed += change.value;
      offset += change.value.length;
    } else {
      open.inserted += change.value;
    }
  }
  close();
  return hunks;
}

/** The one hunk between the whole lines `base` and `proposed` share at their start and end. */
function outerHunk(base: string, proposed: string): Hunk {
  const lines = (text: string): string[] => text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const a = lines(base);
  const b = lines(proposed);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const from = a.slice(0, head).join('').length;
  const to = base.length - a.slice(a.length - tail).join('').length;
  const inserted = proposed.slice(from, proposed.length - (base.length - to));
  return { index: 0, from, to, removed: base.slice(from, to), inserted };
}

/**
 * `text` with every hunk applied: each `[from, to)` (offsets in `text`) becomes `inserted`.
 * Hunks may come in any order; they are sorted by `from` (an insertion at an offset goes
 * before a replacement starting there). Throws an `Error` when an offset is not an integer
 * in `[0, text.length]`, when `from > to`, when two ranges overlap, or when two insertions
 * share an offset (their order would be ambiguous): callers pass hunks of one diff, so any
 * of these is a bug, not a user error.
 */
export function applyHunks(text: string, hunks: readonly HunkEdit[]): string {
  for (const h of hunks) {
    if (!Number.isInteger(h.from) || !Number.isInteger(h.to) || h.from < 0 || h.from > h.to || h.to > text.length) {
      throw new Error(`applyHunks: hunk [${h.from}, ${h.to}) is out of range for a text of ${text.length} chars`);
    }
  }
  const sorted = [...hunks].sort((a, b) => a.from - b.from || a.to - b.to);
  const pieces: string[] = [];
  let cursor = 0;
  let previous: HunkEdit | null = null;
  for (const h of sorted) {
    const sameInsertionPoint = previous !== null && previous.from === previous.to && h.from === h.to && h.from === previous.from;
    if (h.from < cursor || sameInsertionPoint) {
      throw new Error(`applyHunks: hunk [${h.from}, ${h.to}) overlaps hunk [${previous?.from}, ${previous?.to})`);
    }
    pieces.push(text.slice(cursor, h.from), h.inserted);
    cursor = h.to;
    previous = h;
  }
  pieces.push(text.slice(cursor));
  return pieces.join('');
}
