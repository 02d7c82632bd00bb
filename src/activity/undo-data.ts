/**
 * What undoes a change, computed when it is logged, and the texts around it read back (pure
 * string work). Edits keep the text after the change and a reverse patch (jsdiff
 * `createPatch` from after to before, applied with `applyPatch`): the patch is small where
 * the whole text before would double the log. The patch is checked on the spot; when it does
 * not reproduce the text before (or the diff passes {@link PATCH_MAX_EDIT} lines) the whole
 * text before is kept instead.
 */
import { applyPatch, createPatch } from 'diff';
import { hashText } from '../vault/hash';
import type { AppliedChange } from '../vault/writes/applied-change';
import type { ActivityEntry, ActivityUndo } from './types';

/** Most changed lines a reverse patch is computed for (jsdiff `maxEditLength`); past it the text before is kept whole. */
export const PATCH_MAX_EDIT = 400;
/** Unchanged lines around each change in a reverse patch. */
const PATCH_CONTEXT = 2;

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

/** `after` and a checked reverse patch to `before`, else both texts whole. */
function textUndo(before: string, after: string): ActivityUndo {
  const patch = createPatch('note', after, before, '', '', { context: PATCH_CONTEXT, maxEditLength: PATCH_MAX_EDIT });
  if (patch !== undefined && applyPatch(after, patch) === before) return { after, patch };
  return { after, before };
}

/**
 * The whole text before and after an entry's change, from its undo data: null where there is
 * none (before a create, after a delete, for moves and folders).
 * @throws Error when the stored patch no longer applies to the stored text (a damaged log entry).
 */
export function textsOf(entry: ActivityEntry): { before: string | null; after: string | null } {
  const { undo } = entry;
  const after = undo.after ?? null;
  if (undo.before !== undefined) return { before: undo.before, after };
  if (after !== null && undo.patch !== undefined) {
    const before = applyPatch(after, undo.patch);
    if (before === false) throw new Error(`Activity entry ${entry.id} is damaged: its patch does not apply to its text.`);
    return { before, after };
  }
  return { before: null, after };
}
