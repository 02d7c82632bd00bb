import { ToolError } from '../../errors';

/**
 * The refusals writes give (docs/architecture.md#error-model): one sentence the agent can act on,
 * each wording in one place. Access refusals that name frontmatter (read-only, protected
 * keys) live beside the guard that decides them (frontmatter-guard.ts).
 */

/** The conflict refusal: the note changed since the agent read it (expected_hash differs). */
export function conflictError(notePath: string): ToolError {
  return new ToolError(
    'conflict',
    `Note '${notePath}' changed since you read it (expected_hash does not match); nothing was written. Read it again with read_note and redo the change on the new text.`,
  );
}

/**
 * The refusal of an `expected_hash` given where there is no note version to compare it with
 * (`what`: "a new note (create_note)", "a folder"...). It applies to an existing note: write_note,
 * append_note, edit_note, set_properties, delete_note and move_note of a note.
 */
export function hashNotApplicable(what: string): ToolError {
  return new ToolError(
    'invalid_argument',
    `expected_hash does not apply to ${what}: it guards an existing note (write_note, append_note, edit_note, set_properties, delete_note, move_note of a note); leave it out.`,
  );
}

/** The refusal when a note kept changing under an edit after every retry. */
export function keptChangingError(notePath: string): ToolError {
  return new ToolError(
    'conflict',
    `Note '${notePath}' kept changing while this edit was applied, so nothing was written; read it again and retry.`,
  );
}

/**
 * The one answer for a taken or unavailable target of create, move or create_folder. It does
 * not echo the resolved path: resolution matches existing names case-insensitively, so the
 * echo would reveal the exact name of a note the key may not see.
 */
export function takenError(verb: string): ToolError {
  return new ToolError('exists', `Cannot ${verb} that path: it is taken or unavailable; choose another path.`);
}

/**
 * A write to an existing note refused because the entry at its path on disk is no longer the
 * file the write was checked on (NotePolicy.isWhereJudgedNow): another program (a sync client,
 * git) put a symbolic link or something else there, or re-pointed a link on its way, and the
 * vault has not reported it yet. Says nothing of where the entry leads now (it may be a note the
 * key may not see). Not a BaseChangedError: force mode does not prepare again on what is there.
 * @param notePath the note's vault path. @returns ToolError('conflict', rule `replaced`) saying nothing was written and what to do.
 */
export function replacedOnDiskError(notePath: string): ToolError {
  return new ToolError(
    'conflict',
    `Note '${notePath}' was replaced on disk by another program (a symbolic link or another entry now stands at its path) since the vault last reported it, so nothing was written. Wait a moment and read it again before writing; if it still cannot be written, ask the user to check what is at that path.`,
    'replaced',
  );
}

/**
 * A route refused because the note was renamed or moved in the vault (by the user, another
 * program, a sync) after it was checked and before the route acted: what it was checked for
 * (quarantine, roots, the key's rules) held at the old path, and its new place may be one the
 * key may not see, so the answer names only the path the agent gave (docs/reliability.md).
 * @param notePath the vault path the note was checked at. @returns ToolError('not_found').
 */
export function movedError(notePath: string): ToolError {
  return new ToolError(
    'not_found',
    `Note '${notePath}' was deleted or moved while this change was made; nothing was written. Find it again with search or list_notes and read it.`,
  );
}

/**
 * Thrown by the apply step when the note is no longer the text a write was prepared on (the
 * user typed, sync arrived): force mode prepares again on the new text; proposals rebase.
 * A ToolError('conflict') so that, if it ever reaches an agent, it says what to do.
 */
export class BaseChangedError extends ToolError {
  /** @param notePath the note whose text changed since the write was prepared. */
  constructor(notePath: string) {
    super('conflict', `Note '${notePath}' changed since this change was prepared; nothing was written. Read it again and redo the change.`);
  }
}

/**
 * A move refused because of other notes: `rule` `links` when Obsidian's link updates would
 * change notes the key may not write (`blockers`: those linkers), `contents` when a folder holds
 * notes it may not move (`blockers`: those notes). The message, for agents, names none of them
 * (they may be notes the key may not see); `blockers` (vault paths, in the order met) is for
 * the user, to whom a refused revert names the notes that block it (activity-revert.ts).
 * A ToolError('forbidden').
 */
export class MoveBlockedError extends ToolError {
  /**
   * @param message the agent's sentence. @param rule which rule refused.
   * @param blockers the vault paths of the notes that block the move (at least one).
   */
  constructor(
    message: string,
    readonly rule: 'links' | 'contents',
    readonly blockers: readonly string[],
  ) {
    super('forbidden', message);
  }
}

/** The fs error codes a write can meet that the user, not the agent, must fix, and what to tell. */
const FILE_SYSTEM_REFUSALS: Record<string, { code: 'unavailable' | 'forbidden'; why: string; fix: string }> = {
  ENOSPC: { code: 'unavailable', why: 'the disk is full', fix: 'Ask the user to free disk space, then retry.' },
  EDQUOT: { code: 'unavailable', why: 'the disk quota is used up', fix: 'Ask the user to free disk space, then retry.' },
  EACCES: {
    code: 'forbidden',
    why: 'the file or its folder is read-only or not writable',
    fix: 'Ask the user to change its file permissions; do not retry until then.',
  },
  EPERM: {
    code: 'forbidden',
    why: 'the file or its folder is read-only or not writable',
    fix: 'Ask the user to change its file permissions; do not retry until then.',
  },
  EROFS: {
    code: 'forbidden',
    why: 'the vault is on a read-only file system',
    fix: 'Ask the user to make the vault writable; do not retry until then.',
  },
  EBUSY: { code: 'unavailable', why: 'the file is locked by another program', fix: 'Retry in a moment.' },
  EMFILE: { code: 'unavailable', why: 'the system has too many open files', fix: 'Retry in a moment.' },
  ENFILE: { code: 'unavailable', why: 'the system has too many open files', fix: 'Retry in a moment.' },
};

/**
 * The tool error for a file system refusal (Node's `error.code`: ENOSPC, EACCES, EROFS, ...)
 * met while changing `target`, so a full disk or a read-only file reaches the agent as one
 * sentence instead of an internal error. ENOENT means the note was deleted or moved on disk
 * after it was found (not_found). Writes go through a temp file (or `vault.process`), so
 * `outcome` ("nothing was written", "nothing was staged") holds whenever one of these is thrown.
 * @param target what was being changed, e.g. `'Inbox.md'` or `the proposals file`.
 * @returns the ToolError, or null for anything else (a bug: rethrow it).
 */
export function fileSystemRefusal(error: unknown, target: string, outcome = 'nothing was written'): ToolError | null {
  if (error instanceof ToolError) return null;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code !== 'string') return null;
  if (code === 'ENOENT') {
    return new ToolError(
      'not_found',
      `${target} was deleted or moved while this change was written; ${outcome}. Find it again with search or list_notes and read it.`,
    );
  }
  const refusal = FILE_SYSTEM_REFUSALS[code];
  return refusal
    ? new ToolError(refusal.code, `Cannot write ${target}: ${refusal.why} (${code}); ${outcome}. ${refusal.fix}`, 'file')
    : null;
}

/**
 * Runs `fn`, turning the file system refusals it throws into tool errors (see
 * {@link fileSystemRefusal}); everything else is rethrown as is.
 */
export async function withFileSystemRefusals<T>(target: string, fn: () => Promise<T>, outcome?: string): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw fileSystemRefusal(error, target, outcome) ?? error;
  }
}
