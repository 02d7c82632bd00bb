/**
 * Errors an agent can act on. A `ToolError` becomes a tool result with `isError: true`
 * (MCP spec 2025-06-18, "Tools" → "Error Handling": tool execution errors are reported in
 * the result so the model can see them and self-correct). Anything else thrown by a
 * handler is a bug and becomes JSON-RPC -32603 with the stack logged, not sent.
 */

import { clusterPrefix } from './vault/content/text/graphemes';
import { visibleText } from './diff/visible-text';

/** Machine-readable reason carried by a {@link ToolError}. */
export type ToolErrorCode =
  'not_found' | 'ambiguous' | 'invalid_argument' | 'forbidden' | 'conflict' | 'exists' | 'too_large' | 'unavailable';

/**
 * Which rule refused a write, for the user's own sentences (a refused revert names it:
 * activity/activity-revert.ts); agents read `message`. `protected`: an `access` or
 * `agent_overrides` property would be added, changed or removed; `yaml`: the frontmatter would
 * not parse; `read-only`: the note's rules make it read-only for the key; `closed`: a
 * quarantined folder or the widgets folder; `roots`: outside the key's roots; `file`: the file
 * system refused (permissions, a read-only disk); `replaced`: the entry at the note's path on disk is
 * no longer the file the write was checked on (another program swapped a symbolic link in).
 */
export type RefusalRule = 'protected' | 'yaml' | 'read-only' | 'closed' | 'roots' | 'file' | 'replaced';

/**
 * What of the vault a caller may be shown beyond what it sent, in messages (docs/security.md#keys):
 * `names` — paths of notes it did not name (a key whose tool set lists notes); `text` — a note's
 * own text: headings, property lines, YAML (a key whose tool set reads notes). The rule that
 * derives it from a key's tool set is server/content/tool-set-routes.ts `toolSetSight`.
 */
export interface VaultSight {
  names: boolean;
  text: boolean;
}

/**
 * The message a {@link ToolError} gives instead to a caller whose {@link VaultSight} lacks `shows`:
 * the same fault and what to do with the tools such a caller has, with no note name or text it
 * did not send.
 */
export interface WithheldDetail {
  shows: keyof VaultSight;
  message: string;
}

/** The withheld sentence of a message showing note names: `fault` (no name in it), then why and whom to ask. */
export function withoutNames(fault: string): WithheldDetail {
  return { shows: 'names', message: `${fault} (this key cannot list notes: ask the user).` };
}

/** The withheld sentence of a message showing a note's text: `fault` (none of it in it), then why and whom to ask. */
export function withoutText(fault: string): WithheldDetail {
  return { shows: 'text', message: `${fault} (this key cannot read notes: ask the user).` };
}

/**
 * A failure the calling agent can fix. `message` is one plain sentence that names what to
 * do instead (e.g. "Note 'x.md' not found; call search or list_notes to find its path.").
 * A message that shows note names or text the caller did not send also carries `withheld`, the
 * sentence for a caller that may not see them; every route that hands a message to an agent
 * picks between them with {@link ToolError.messageFor}.
 */
export class ToolError extends Error {
  /**
   * @param code why it failed; @param message one sentence, shown to the model as is.
   * @param why for an access or file system refusal of a write, which rule refused ({@link RefusalRule}).
   * @param withheld the sentence for a caller that may not see what `message` shows ({@link WithheldDetail}).
   */
  constructor(
    readonly code: ToolErrorCode,
    message: string,
    readonly why?: RefusalRule,
    readonly withheld?: WithheldDetail,
  ) {
    super(message);
    this.name = 'ToolError';
  }

  /**
   * The message for a caller that may see `sight` of the vault: `message`, or `withheld.message`
   * when it shows what `sight` does not allow.
   * @param sight the caller's sight (AccessScope.sight); undefined = all (internal callers, the user).
   */
  messageFor(sight: VaultSight | undefined): string {
    return this.withheld === undefined || sight === undefined || sight[this.withheld.shows] ? this.message : this.withheld.message;
  }
}

/**
 * The first `most` of `items` joined with `separator`, then `… and N more` (`… and N more problems` with a `noun`)
 * for the rest, so a message about a wide input stays short.
 * @param items texts already quoted or cut as the message needs. @param most how many are written out (at least 1).
 * @returns the joined text; all of `items` when they are at most `most`.
 */
export function listWithMore(items: readonly string[], most: number, separator = ', ', noun = ''): string {
  if (items.length <= most) return items.join(separator);
  const more = (items.length - most).toLocaleString('en-US');
  return `${items.slice(0, most).join(separator)}${separator}… and ${more} more${noun === '' ? '' : ` ${noun}`}`;
}

/** Most chars of a caller's input quoted back in an error message. */
export const MAX_ECHO_CHARS = 80;

/**
 * The start of a caller's input for an error message: `input` itself when it has at most
 * {@link MAX_ECHO_CHARS} chars, else its first {@link MAX_ECHO_CHARS} chars (fewer when that
 * would split a character: a surrogate pair or a grapheme cluster, see `clusterPrefix`) followed by `…`, so a huge argument is never sent back
 * whole and the cut is visible.
 * @param input what the caller sent (a path, id, heading, date, URI, name or handle)
 * @returns the possibly shortened text, unquoted (see {@link quoteInput})
 */
export function inputExcerpt(input: string): string {
  if (input.length <= MAX_ECHO_CHARS) return input;
  return `${clusterPrefix(input, MAX_ECHO_CHARS)}…`;
}

/**
 * `'input'` for an error message: the {@link inputExcerpt} of `input` in single quotes, with every
 * character drawn as nothing or acted on written out (visibleText: `H\u200Bome` is `'H<U+200B>ome'`,
 * which read as "Home not found" when shown as it is: session 43's newcomer). Every message that
 * quotes what a caller sent goes through here (or inputExcerpt, for a list).
 * @param input what the caller sent (a path, id, heading, date, URI, name or handle)
 * @returns the quoted, possibly shortened text
 */
export function quoteInput(input: string): string {
  return `'${visibleText(inputExcerpt(input))}'`;
}
