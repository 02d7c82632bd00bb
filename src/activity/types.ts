/**
 * The plain-data shapes of the agent activity log (docs/architecture.md#agent-activity): one entry per
 * change an agent caused (a force-mode write, an accepted proposal) or the user's revert of
 * one, with what undoes it. No Obsidian objects, no DOM: entries persist as JSON.
 */
import type { LineSums } from '../diff/line-sums';
import type { WidgetWriter } from '../settings/settings';

/** What a logged change did; `widget` is a widget file written, replaced or taken away. */
export type ActivityKind = 'edit' | 'properties' | 'create' | 'delete' | 'move' | 'folder' | 'widget';

/** How the change came about: the agent's own force-mode call, the user accepting its proposal, or the user reverting an entry. */
export type ActivityRoute = 'agent' | 'proposal' | 'revert';

/**
 * One hunk of a reverse patch: the text after's `[from, to)` (UTF-16 offsets, whole lines)
 * becomes `inserted` again. Entries logged as a patch only (undo-data.ts) also keep `removed`
 * (the text after's own lines there), `pre`/`post` (the whole line before and after the hunk,
 * '' at the start or end of the text), `line` (1-based line of `from` in the text after) and `unique`,
 * so the hunk can be found again on a note that changed since and shown without the whole text.
 */
export interface ReverseHunk {
  from: number;
  to: number;
  inserted: string;
  removed?: string;
  pre?: string;
  post?: string;
  line?: number;
  /**
   * Set (true) on an entry whose `after_sums` hold chunks of several lines, when the hunk's lines
   * with the line on each side occur once in the text after, as they are or as the hunk makes
   * them (diff/line-sums.ts uniqueRegions): a revert on the note changed since then places it
   * whatever other chunks changed. Absent: not known (older entries), or they occur again.
   */
  unique?: boolean;
}

/**
 * What undoes a change, beside the entry's paths: `patch`, the hunks from the text after back
 * to the text before (edits, property changes and widget replaces; see undo-data.ts); `after`,
 * the whole text a create (or a widget write) made — entries logged before patch-only undo
 * data also have it on edits; `before`, the whole text before, for a delete (the system trash
 * cannot be read back through the API) and a widget taken away. A move or a folder needs only
 * its paths.
 */
export interface ActivityUndo {
  after?: string;
  patch?: ReverseHunk[];
  /**
   * With a patch only: the fingerprint of the whole text after (diff/line-sums.ts), so a revert
   * on a note that changed since is placed three-way; absent on entries logged before it was kept.
   */
  after_sums?: LineSums;
  before?: string;
  /** On a delete: the note's bytes were not UTF-8, so `before` is not the note (a revert refuses and points to the trash). */
  not_utf8?: boolean;
}

/**
 * One logged change. `path` is where the note (folder, widget) is after the change; a move
 * has the old path in `from`; `removed` marks a folder taken away (undoing a create_folder).
 * A move's `linkers` are the notes whose links it rewrote (Obsidian updates every link to what
 * moves, so their text changed too), at their paths after the move; absent when none (and on
 * entries logged before they were kept). Reverting the move rewrites them back, as moving back
 * makes Obsidian do.
 * `created` is the creation time of the note (for a move, the note or folder) at `path` right
 * after the change, as `vault.adapter.stat` reads it (ms since the epoch; an edit, a create, a
 * move; absent where it was not known): a revert acts only on the note with that time, never on
 * another note put at `path` since. `inode` is that note's file number on disk (decimal; kept only
 * where the vault's writes are seen to keep a note's file: Obsidian's desktop adapter writes in
 * place, and so does the test host, `npm start`): a revert refuses another file there, even one
 * made in the same millisecond. Not the device: its number is given at mount and may change.
 * `hash_before`/`hash_after` are SHA-256 hex of the whole text (null where there is none).
 * `reverts` names the entry this one undid (so reverting it redoes that one); `reverted_by`
 * the entry that undid this one; `left`, on a revert, how many changes of the reverted entry
 * no longer applied and were left as they are.
 * `writer_before`, on a widget entry, is the widget's writer record before the change (the key
 * that wrote the text it replaced or took away; null: no key's), which a revert puts back with
 * that text (keys/widget-writers.ts); absent on entries logged before it was kept (a revert then
 * gives the text no known writer, so it shows no data).
 */
export interface ActivityEntry {
  id: string;
  at: string;
  key_id: string;
  key_label: string;
  key_roots: string[];
  session: string | null;
  tool: string;
  kind: ActivityKind;
  path: string;
  from?: string;
  folder?: boolean;
  linkers?: string[];
  created?: number;
  inode?: string;
  removed?: boolean;
  hash_before: string | null;
  hash_after: string | null;
  via: ActivityRoute;
  proposal_id?: string;
  hunks?: number[];
  reverts?: string;
  reverted_by?: string;
  left?: number;
  writer_before?: WidgetWriter | null;
  undo: ActivityUndo;
}

/** The log's limits (settings `activity`): total size of the file and age of an entry; oldest dropped first. */
export interface ActivityLimits {
  /** Largest size of the log file, megabytes (MiB). */
  maxMegabytes: number;
  /** Oldest entry kept, days. */
  maxDays: number;
}
