/**
 * What undoes a change, computed when it is logged, and the texts around it read back (pure
 * string work). An edit keeps the text after the change and a reverse patch: the line hunks
 * from that text back to the text before (diff/hunks.ts, jsdiff `diffLines`), each
 * `{from, to, inserted}` with offsets in the text after and the replaced text to put back, so
 * only the changed lines are stored twice. `applyHunks(after, patch) === before` holds byte for
 * byte (buildHunks' contract).
 */
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
      return { undo: { before: change.before }, hash_before: hashText(change.before), hash_after: null };
    case 'widget': {
      const hash_before = change.before === null ? null : hashText(change.before);
      const hash_after = change.after === null ? null : hashText(change.after);
      if (change.after === null) return { undo: { before: change.before ?? '' }, hash_before, hash_after };
      return { undo: change.before === null ? { after: change.after } : textUndo(change.before, change.after), hash_before, hash_after };
    }
    default:
      return { undo: {}, hash_before: null, hash_after: null };
  }
}

/** `after` and the reverse patch back to `before`. */
function textUndo(before: string, after: string): ActivityUndo {
  return { after, patch: buildHunks(after, before).map(({ from, to, inserted }): ReverseHunk => ({ from, to, inserted })) };
}

/**
 * The whole text before and after an entry's change, from its undo data: null where there is
 * none (before a create, after a delete, for moves and folders).
 * @throws Error when the stored patch does not fit the stored text (a damaged log entry).
 */
export function textsOf(entry: ActivityEntry): { before: string | null; after: string | null } {
  const { undo } = entry;
  const after = undo.after ?? null;
  if (undo.before !== undefined) return { before: undo.before, after };
  if (after !== null && undo.patch !== undefined) {
    try {
      return { before: applyHunks(after, undo.patch), after };
    } catch {
      throw new Error(`Activity entry ${entry.id} is damaged: its patch does not fit its text.`);
    }
  }
  return { before: null, after };
}
