/**
 * What undoes a change, computed when it is logged, and the texts around it read back (pure
 * string work). An edit keeps only its reverse patch (what a revert needs costs what
 * the change costs, never the whole note): the line hunks from the text after back to the text
 * before (diff/hunks.ts, jsdiff `diffLines`), each `{from, to, inserted, removed, pre, post,
 * line}`: offsets in the text after, the replaced text to put back, the text after's own lines
 * there, and the whole line before and after the hunk (its context, '' at the start or end of
 * the text), plus `after_sums`, a fingerprint of the whole text after of at most a few KB
 * (diff/line-sums.ts), and, when that fingerprint holds chunks of several lines (a note of more
 * than about 256 lines), `unique: true` on each hunk whose lines with the line on each side occur
 * once in the text after (line-sums.ts uniqueRegions). `applyHunks(after, patch) === before` holds byte for byte (buildHunks'
 * contract), so when the note is still what the change left the revert is exact; when it changed
 * since, each hunk is placed three-way on it against that fingerprint ({@link locateHunks}).
 * Entries logged before this (format 1 files) keep the whole text after in `undo.after` and are
 * still read; patch-only entries logged without the fingerprint are reverted only exact.
 */
import { crLines, lfLines } from '../diff/hunk-lines';
import { applyHunks, buildHunks } from '../diff/hunks';
import { lineSums, placeBySums, uniqueRegions } from '../diff/line-sums';
import { hashText } from '../vault/hash';
import type { AppliedChange } from '../vault/writes/applied-change';
import type { ActivityEntry, ActivityUndo, ReverseHunk } from './types';

/** The undo data and hashes of an applied change (see {@link ActivityUndo}). */
export function undoOf(change: AppliedChange): { undo: ActivityUndo; hash_before: string | null; hash_after: string | null } {
  switch (change.kind) {
    case 'edit':
    case 'properties':
      return { undo: textUndo(change.before, change.after), hash_before: hashText(change.before), hash_after: hashText(change.after) };
    case 'create':
      return { undo: { after: change.after }, hash_before: null, hash_after: hashText(change.after) };
    case 'delete':
      return {
        undo: { before: change.before, ...(change.notUtf8 ? { not_utf8: true } : {}) },
        hash_before: hashText(change.before),
        hash_after: null,
      };
    case 'widget': {
      const hash_before = change.before === null ? null : hashText(change.before);
      const hash_after = change.after === null ? null : hashText(change.after);
      if (change.after === null) return { undo: { before: change.before ?? '' }, hash_before, hash_after };
      // A widget file is small (capped by the widget tool) and replaced whole: it keeps its text after too.
      return {
        undo:
          change.before === null ? { after: change.after } : { after: change.after, patch: textUndo(change.before, change.after).patch },
        hash_before,
        hash_after,
      };
    }
    default:
      return { undo: {}, hash_before: null, hash_after: null };
  }
}

/**
 * The reverse patch back to `before`, each hunk with the text after's lines there and their
 * context. In a note whose lines end in `\r` alone each `\r` ends a line, as buildHunks diffs it
 * (diff/hunk-lines.ts crLines).
 */
function textUndo(before: string, after: string): ActivityUndo {
  const lines = crLines(before, after) ? lfLines(after) : after;
  const sums = lineSums(after);
  const hunks = buildHunks(after, before);
  // Chunks of several lines: mark each hunk whose region the text after holds once (a revert then needs no other copy left alone).
  const unique = sums && sums.k > 1 ? uniqueRegions(after, hunks) : [];
  return {
    ...(sums ? { after_sums: sums } : {}),
    patch: hunks.map(({ from, to, inserted }, i): ReverseHunk => {
      const lineStart = lines.lastIndexOf('\n', from - 1) + 1;
      // The line before starts after the last break before its own (none when `from` is 1: a first line of one break).
      const preStart = from < 2 ? 0 : lines.lastIndexOf('\n', from - 2) + 1;
      const postEnd = lines.indexOf('\n', to);
      return {
        from,
        to,
        inserted,
        removed: after.slice(from, to),
        pre: after.slice(preStart, from),
        post: after.slice(to, postEnd === -1 ? after.length : postEnd + 1),
        line: countLines(lines, lineStart) + 1,
        ...(unique[i] ? { unique: true } : {}),
      };
    }),
  };
}

/** Line breaks in `text` before offset `end`. */
function countLines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * The whole text before and after an entry's change, from its undo data: null where there is
 * none (before a create, after a delete, for moves and folders). An edit logged as a patch
 * only has its texts when `current` (the note's text now) is still what the change left
 * (its hash is `hash_after`); else both are null (use {@link locateHunks}).
 * @throws Error when the stored patch does not fit the stored text (a damaged log entry).
 */
export function textsOf(entry: ActivityEntry, current?: string | null): { before: string | null; after: string | null } {
  const { undo } = entry;
  let after = undo.after ?? null;
  if (undo.before !== undefined) return { before: undo.before, after };
  if (after === null && undo.patch !== undefined && current != null && hashText(current) === entry.hash_after) after = current;
  if (after !== null && undo.patch !== undefined) {
    try {
      return { before: applyHunks(after, undo.patch), after };
    } catch {
      throw new Error(`Activity entry ${entry.id} is damaged: its patch does not fit its text.`);
    }
  }
  return { before: null, after };
}

/** True when the entry keeps only a patch (no whole text after), so its texts need the note's text now. */
export function isPatchOnly(entry: ActivityEntry): boolean {
  return entry.undo.after === undefined && entry.undo.before === undefined && entry.undo.patch !== undefined;
}

/**
 * Places each hunk of a patch-only entry three-way on `current`, a text that changed since the
 * entry's change: the changes from the text after (known by its fingerprint `undo.after_sums`,
 * diff/line-sums.ts placeBySums, which places by the proposals' rebase.ts rule) to `current`
 * must leave the hunk's lines, the line before and after it and its edges untouched; then it
 * goes where those lines moved to, and only if `current` holds exactly its context and lines
 * there (`pre + removed + post`; '' context: the start or end of the text). A hunk the later
 * changes touch is left out, never placed on a guess: lines equal to the agent's elsewhere in
 * the note are not it. An entry without the fingerprint (logged before it was kept) has every
 * hunk left out.
 * @returns the hunks to apply (offsets in `current`) and the indices in `undo.patch` of those left out.
 */
export function locateHunks(undo: ActivityUndo, current: string): { ready: ReverseHunk[]; left: number[] } {
  const patch = undo.patch ?? [];
  const ready: ReverseHunk[] = [];
  const left: number[] = [];
  const at = undo.after_sums ? placeBySums(undo.after_sums, current, patch) : patch.map(() => null);
  patch.forEach((h, i) => {
    const from = at[i];
    const placed = from === null || from === undefined ? null : fits(h, current, from);
    if (placed === null || ready.some((r) => (r.from < placed.to && placed.from < r.to) || r.from === placed.from)) left.push(i);
    else ready.push(placed);
  });
  return { ready, left };
}

/**
 * Hunk `h` at offset `from` of `current` when `current` holds its context and lines exactly
 * there (see {@link locateHunks}); else null.
 */
function fits(h: ReverseHunk, current: string, from: number): ReverseHunk | null {
  const { pre, removed, post } = h;
  if (removed === undefined || pre === undefined || post === undefined) return null;
  const to = from + removed.length;
  if (from < pre.length || current.slice(from - pre.length, from) !== pre || current.slice(from, to) !== removed) return null;
  if (current.slice(to, to + post.length) !== post) return null;
  if ((pre === '' && from !== 0) || (post === '' && to !== current.length)) return null;
  return { ...h, from, to };
}
