/**
 * What undoes a change, computed when it is logged, and the texts around it read back (pure
 * string work). An edit keeps only its reverse patch (what a revert needs costs what
 * the change costs, never the whole note): the line hunks from the text after back to the text
 * before (diff/hunks.ts, jsdiff `diffLines`), each `{from, to, inserted, removed, pre, post,
 * line}`: offsets in the text after, the replaced text to put back, the text after's own lines
 * there, and the whole line before and after the hunk (its context, '' at the start or end of
 * the text). `applyHunks(after, patch) === before` holds byte for byte (buildHunks' contract),
 * so when the note is still what the change left the revert is exact; when it changed since,
 * each hunk is found again by its context ({@link locateHunks}). Entries logged before this
 * (format 1 files) keep the whole text after in `undo.after` and are still read.
 */
import { crLines, lfLines } from '../diff/hunk-lines';
import { applyHunks, buildHunks } from '../diff/hunks';
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
        undo: change.before === null ? { after: change.after } : { after: change.after, ...textUndo(change.before, change.after) },
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
  return {
    patch: buildHunks(after, before).map(({ from, to, inserted }): ReverseHunk => {
      const lineStart = lines.lastIndexOf('\n', from - 1) + 1;
      const preStart = from === 0 ? 0 : lines.lastIndexOf('\n', from - 2) + 1;
      const postEnd = lines.indexOf('\n', to);
      return {
        from,
        to,
        inserted,
        removed: after.slice(from, to),
        pre: after.slice(preStart, from),
        post: after.slice(to, postEnd === -1 ? after.length : postEnd + 1),
        line: countLines(lines, lineStart) + 1,
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
 * Finds each hunk of a patch-only entry on `current`, a text that changed since the entry's
 * change: a hunk is placed where its context and the text after's lines (`pre + removed +
 * post`) occur exactly once in `current` starting at a line start ('' context: the start or
 * end of the text). A hunk found nowhere, or in more than one place, is stale and left out
 * (the user's later typing touched it or its neighbour lines), never applied on a guess. In a
 * note whose lines end in `\r` alone a line starts after a `\r` (diff/hunk-lines.ts crLines).
 * @returns the hunks to apply (offsets in `current`) and the indices in `patch` of those left out.
 */
export function locateHunks(patch: readonly ReverseHunk[], current: string): { ready: ReverseHunk[]; left: number[] } {
  const ready: ReverseHunk[] = [];
  const left: number[] = [];
  const lines = crLines(current) ? lfLines(current) : current;
  patch.forEach((h, i) => {
    const at = uniqueAt(lines, h, lines !== current);
    const from = at === null ? 0 : at + (h.pre ?? '').length;
    const placed = { ...h, from, to: from + (h.removed ?? '').length };
    if (at === null || ready.some((r) => (r.from < placed.to && placed.from < r.to) || r.from === placed.from)) left.push(i);
    else ready.push(placed);
  });
  return { ready, left };
}

/**
 * Where `pre + removed + post` of `h` starts in `text` if it does exactly once (see {@link locateHunks}); else null.
 * @param cr true when `text` is the {@link lfLines} of a note whose lines end in `\r` alone: a
 *   needle is looked for with its `\r` as `\n`, and one with `\n` is in no such note.
 */
function uniqueAt(text: string, h: ReverseHunk, cr: boolean): number | null {
  if (h.removed === undefined || h.pre === undefined || h.post === undefined) return null;
  const joined = h.pre + h.removed + h.post;
  if (cr && joined.includes('\n')) return null;
  const needle = cr ? lfLines(joined) : joined;
  if (needle === '') return text === '' ? 0 : null;
  let found: number | null = null;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) {
    if (i > 0 && text[i - 1] !== '\n') continue;
    if (h.pre === '' && i !== 0) continue;
    if (h.post === '' && i + needle.length !== text.length) continue;
    if (found !== null) return null;
    found = i;
  }
  return found;
}
