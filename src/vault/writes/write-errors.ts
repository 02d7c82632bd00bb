import { ToolError } from '../../errors';

/**
 * The refusals writes give (DESIGN.md, "Error model"): one sentence the agent can act on,
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

/** The refusal when a note kept changing under an edit after every retry. */
export function keptChangingError(notePath: string): ToolError {
  return new ToolError('conflict', `Note '${notePath}' kept changing while this edit was applied, so nothing was written; read it again and retry.`);
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
