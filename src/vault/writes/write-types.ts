import type { NoteSection } from '../content/sections';
import type { TextChange } from './open-note-editors';

/**
 * The shapes that flow through a write (docs/architecture.md#write-path): what a write
 * tool asks for ({@link WriteRequest}), the validated change ready to apply or stage
 * ({@link PreparedWrite}), and what an applied change reports ({@link WriteResult}).
 */

/** Where `edit_note` puts its content (docs/architecture.md#tool-contract). */
export type EditOp = 'replace' | 'insert_before' | 'insert_after' | 'append_within';

/** What `edit_note` edits: a unique substring of the note, or a heading's section. */
export type EditTarget = { anchor: string } | { heading: string };

/** Fields every request carries: the tool's name (for messages and, later, proposals). */
interface RequestBase {
  tool: string;
}

/** Fields of requests that change an existing note: its path and the optional `expected_hash`. */
interface ExistingNoteRequest extends RequestBase {
  path: string;
  /** The `hash` from read_note; the write refuses with a conflict when the note changed since. */
  expectedHash?: string;
}

/**
 * One write, as a tool asks for it (arguments already schema-checked, paths still raw). A
 * create's `restore` is set only by the user's revert of a logged delete (activity-revert.ts):
 * `content` is the deleted note's own text, so its `access`/`agent_overrides` are put back as
 * they were instead of refused as an agent's additions; no tool sets it.
 */
export type WriteRequest =
  | (RequestBase & { kind: 'create'; path: string; content: string; restore?: boolean })
  | (ExistingNoteRequest & { kind: 'write'; body?: string; frontmatterPatch?: Record<string, unknown> })
  | (ExistingNoteRequest & { kind: 'append'; content: string; ensureNewline: boolean })
  | (ExistingNoteRequest & { kind: 'edit'; target: EditTarget; op: EditOp; content: string })
  | (ExistingNoteRequest & { kind: 'properties'; properties: Record<string, unknown> })
  | (ExistingNoteRequest & { kind: 'move'; to: string })
  | (ExistingNoteRequest & { kind: 'delete' })
  | (RequestBase & { kind: 'folder'; path: string });

/** A 1-based, inclusive line range in the note's new text. */
export interface LineRange {
  start: number;
  end: number;
}

/**
 * The outcome of a text edit: the whole new text and the lines of the region that changed
 * (absent only for a property patch that leaves the note without frontmatter), and a remark
 * for the agent's result (`note`: a property name matched to the note's own spelling).
 */
export interface TextEditResult {
  text: string;
  lines?: LineRange;
  note?: string;
}

/**
 * A change to a note's text as a function of the text it is computed on. `outline` is the
 * note's sections for exactly that text (from the metadata cache), or null for edits that
 * need no headings. Throws ToolError when the edit cannot apply to that text (anchor gone,
 * heading missing...). Lives only while a write is prepared: what leaves prepare is plain data.
 */
export type TextEdit = (text: string, outline: NoteSection[] | null) => TextEditResult;

/** Frontmatter properties to set (a value) or delete (null). */
export type PropertyPatch = Record<string, unknown>;

/**
 * A validated change to an existing note's text (write_note, append_note, edit_note,
 * set_properties), as plain data that can be persisted: `baseText`/`baseHash` are the note as
 * read while preparing, `proposedText`/`proposedLines` the whole new text and its changed lines,
 * `note` the edit's remark for the agent's result (not kept in a proposal).
 */
export interface PreparedTextWrite {
  kind: 'edit' | 'properties';
  tool: string;
  path: string;
  expectedHash?: string;
  baseText: string;
  baseHash: string;
  proposedText: string;
  proposedLines?: LineRange;
  note?: string;
}

/**
 * A validated write, ready to apply (force mode) or to stage as a proposal (propose mode):
 * plain data only (no TFile, no closures), so proposals can persist it. `kind` uses the
 * proposal kinds of docs/architecture.md#proposals. Paths are normalized vault paths; `folder` on a
 * move tells a folder move from a note move; a note's move or delete carries its text as read.
 * Applying a move notes the linkers it rewrote on it (`linkersRewritten`), as a delete notes `notUtf8`.
 */
export type PreparedWrite =
  | { kind: 'create'; tool: string; path: string; proposedText: string; note?: string }
  | PreparedTextWrite
  | {
      kind: 'move';
      tool: string;
      path: string;
      to: string;
      folder: boolean;
      expectedHash?: string;
      /** Set when applied (EntryWriter): the notes whose text Obsidian's link updates changed, at their paths after the move. */
      linkersRewritten?: string[];
    }
  | { kind: 'delete'; tool: string; path: string; expectedHash?: string; baseText: string; baseHash: string; notUtf8?: boolean }
  | { kind: 'folder'; tool: string; path: string };

/**
 * Names the vault paths whose change an agent may not apply directly, even with a force key
 * (write-gate.ts: agent instructions are the user's to write). Given a normalized vault path
 * (file or folder, existing or not); true holds the write back.
 */
export type HoldRule = (path: string) => boolean;

/**
 * A force-mode write that a {@link HoldRule} held back: validated like any write (every check
 * passed) and not applied, `prepared` ready to stage as a proposal.
 */
export interface HeldWrite {
  status: 'held';
  prepared: PreparedWrite;
}

/** The apply primitive's input: write `text` to the note at `path` if the note's hash is still `baseHash`. */
export interface ExactTextWrite {
  tool: string;
  /** What kind of text change it is, for the activity log (default `edit`). */
  kind?: 'edit' | 'properties';
  path: string;
  baseHash: string;
  text: string;
  /** The changed lines of `text`, reported back in the result when known. */
  lines?: LineRange;
  /**
   * The accepted hunks of a proposal that turn the text of `baseHash` into `text` (offsets in
   * the base): in an open editor they are applied as they are, as one accept transaction.
   * Without them the write is an agent's own: one minimal change, tagged as an agent write.
   */
  acceptedHunks?: ReadonlyArray<TextChange>;
}

/**
 * What an applied write reports, so an agent can verify without re-reading:
 * `{status: 'applied', path, hash, size_before, size_after, lines?}`. Sizes are bytes of the
 * whole note's file: its text in UTF-8, or the file's own bytes for one that is not UTF-8 text
 * (entry-writer.ts savedSize: only a move or delete acts on one); `hash` is the SHA-256 hex of the note's new text (for a deleted note, of
 * the text that went to the trash); `lines` is the changed region in the new text; `from`
 * is the old path of a move. Folder results carry only `status` and `path` (and `from`).
 * A write that changed nothing is `status: 'unchanged'` ({@link unchangedWrite}).
 */
export interface WriteResult {
  status: 'applied' | 'unchanged';
  path: string;
  from?: string;
  hash?: string;
  size_before?: number;
  size_after?: number;
  lines?: LineRange;
  [key: string]: unknown;
}

/**
 * The answer to a write that would change nothing (a property set to the value it has, an
 * anchor replaced by itself, a widget replaced by the same HTML), the same for a `force` key
 * (nothing written, nothing logged) and a `propose` key (nothing staged), so an agent handles
 * one shape: `{status: 'unchanged', path, hash, message, note?}`.
 * @param path the note's (or widget's) vault path. @param hash the SHA-256 hex of the text it
 *   has, which is what a write would have left. @param note the edit's own remark, if any (a
 *   property name matched to the note's spelling).
 */
export function unchangedWrite(path: string, hash: string, note?: string): WriteResult & { status: 'unchanged'; hash: string } {
  return {
    status: 'unchanged',
    path,
    hash,
    message: `Nothing to change: '${path}' already reads that way, so nothing was written, staged or logged.`,
    ...(note !== undefined ? { note } : {}),
  };
}
