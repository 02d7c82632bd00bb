/**
 * Reverting logged changes (docs/architecture.md#agent-activity): one entry, or every entry of a key or
 * of a session, newest first. A revert is a write like any other, made through the same
 * primitives (NoteWriter's hash-guarded apply, create, move, trash; WidgetStore) with the
 * checks of the key that made the change (its label for access rules, its roots now), so a
 * note that became private, read-only, quarantined or out of the key's roots is refused with
 * one sentence. A text change is undone three-way when the note changed since: the undo's
 * hunks are placed on the current text (diff/rebase.ts, pure string work shared with
 * proposals) and a hunk the later text touches is left alone, never applied over it. The
 * revert is itself logged (`reverts`), so reverting it redoes the change.
 */
import { ToolError } from '../errors';
import { applyHunks, buildHunks } from '../diff/hunks';
import { placeHunks } from '../diff/rebase';
import type { AccessScope } from '../vault/access/access';
import { hashText } from '../vault/hash';
import type { NoteStore } from '../vault/note-store';
import { BaseChangedError, MoveBlockedError } from '../vault/writes/write-errors';
import type { ActivityLog } from './activity-log';
import type { ActivityEntry } from './types';
import { diffPreview } from './activity-diff';
import { isPatchOnly, locateHunks, textsOf } from './undo-data';

/**
 * What a text revert did beyond the undo: the indices (in the entry's hunk order, as `activity
 * <id>` lists them) of the changes the note's later text touches, left as they are, and whether
 * the undo was placed on a text that changed since (the later changes kept), not written exact.
 */
interface UndoDone {
  left: number[];
  merged: boolean;
}

/** An undo written exact: nothing left out, nothing later kept. */
const EXACT: UndoDone = { left: [], merged: false };

/** The kinds whose entry names one note (or, for a move, a folder) at `path` that a revert acts on (ActivityRevert.assertSameNote). */
const SAME_NOTE_KINDS: ReadonlySet<string> = new Set(['edit', 'properties', 'create', 'move']);

/**
 * Milliseconds two readings of one note's creation time may differ by: the log and the revert
 * both read it with `vault.adapter.stat`, which gives the file system's time in ms (Obsidian and
 * the test host round Node's fractional `birthtimeMs`), so the one note reads the same; one ms
 * allows for a reader that cuts where the other rounds. The log's own time of the change is cut
 * to the ms, so a note made with the change may read up to this much after it.
 */
const CLOCK_SLACK_MS = 1;

/**
 * How the note at an entry's path now differs from the one it changed (ActivityRevert.assertSameNote):
 * `later`, made after the change; `older`, made before the changed note; `other`, made between
 * the two, or at another time than the one logged; `replaced`, made at the logged time but another
 * file on disk; `unknown`, its creation time cannot be read now.
 */
type NotTheNote = 'later' | 'older' | 'other' | 'replaced' | 'unknown';

/** The rest of NotTheNoteError's sentence after "the note (folder) there now", by {@link NotTheNote}; `@` is "note" or "folder". */
const NOT_THE_NOTE: Record<NotTheNote, string> = {
  later:
    'was put there after this change (renamed or moved there, or this one written anew as a new file by a sync tool, git or an editor that saves by replacing files)',
  older: 'is an older @ put there since (renamed, moved or replaced)',
  other: 'is another @ put there since (renamed, moved or replaced)',
  replaced:
    'is another file on disk with the same creation time (a note made in the same millisecond, or this one written anew as a new file by a sync tool, git or an editor that saves by replacing files)',
  unknown: 'has no creation time the revert can read, so it cannot be told to be the same',
};

/**
 * A revert refused because the note at the entry's path now is not the one it changed
 * (ActivityRevert.assertSameNote), `why` saying how ({@link NotTheNote}).
 */
class NotTheNoteError extends ToolError {
  constructor(
    readonly entry: ActivityEntry,
    why: NotTheNote,
  ) {
    const noun = entry.folder ? 'folder' : 'note';
    const when = NOT_THE_NOTE[why].replace('@', noun);
    const what = entry.kind === 'move' ? 'the one moved there' : `the one this change ${entry.kind === 'create' ? 'made' : 'was made to'}`;
    const so = entry.kind === 'move' ? 'so nothing was moved' : 'so it was left as it is';
    super('conflict', `'${entry.path}' is not ${what}: the ${noun} there now ${when}, ${so}.`);
  }
}

/** The tool name a revert's own log entry carries. */
export const REVERT_TOOL = 'revert';

/** How often a text revert places its hunks again when the note changed between reading and writing it. */
const REVERT_ATTEMPTS = 4;

/** What one revert did, in one sentence for the user. */
export interface RevertOutcome {
  /** The entry asked for. */
  id: string;
  reverted: boolean;
  message: string;
}

/** Reverts logged changes; see the module comment. */
export class ActivityRevert {
  /**
   * @param log the activity log. @param notes the vault side (checks and writes).
   * @param keyRoots the current roots of a key by id, or null when the key was revoked (then
   *   the roots it had when it made the change apply).
   */
  constructor(
    private readonly log: ActivityLog,
    private readonly notes: NoteStore,
    private readonly keyRoots: (keyId: string) => string[] | null,
  ) {}

  /**
   * Reverts entry `id` (or, for a revert entry, redoes what it undid), after taking in what
   * another instance on the vault logged (ActivityLog.refresh), as do {@link revertKey} and
   * {@link revertSession}.
   * @returns the outcome; a refusal (unknown id, already reverted, the note gone, private,
   *   read-only, changed where the undo would go) is `reverted: false` with the reason. Throws only for bugs.
   */
  async revert(id: string): Promise<RevertOutcome> {
    await this.log.refresh();
    const entry = this.log.get(id);
    if (!entry)
      return { id, reverted: false, message: `No activity entry '${id}'; list them with "activity" (or the Agent activity view).` };
    if (this.log.isReverted(entry)) {
      return {
        id,
        reverted: false,
        message: `${id} is already reverted (by ${entry.reverted_by}); revert ${entry.reverted_by} to redo it.`,
      };
    }
    const scope: AccessScope = {
      label: entry.key_label,
      roots: this.keyRoots(entry.key_id) ?? entry.key_roots,
      actor: { keyId: entry.key_id, via: { revert: entry.id } },
    };
    try {
      const done = await this.undo(entry, scope);
      const by = this.log.get(id)?.reverted_by;
      return { id, reverted: true, message: revertedSentence(entry, done, by, by ? this.log.get(by)?.linkers : undefined) };
    } catch (err) {
      if (!(err instanceof ToolError)) throw err;
      const movedBy = err.code === 'not_found' ? laterMoveOf(this.log, entry) : undefined;
      // The user's own view: a note the key may no longer read is named by its cause (the agent is never told it).
      const why = err.code === 'not_found' ? this.notes.unreadableReason(entry.path, scope) : null;
      const hidden = why === 'hidden' || why === 'quarantined' || why === 'roots';
      const next = movedBy ? movedSince(entry, movedBy) : hidden ? hiddenNextStep(entry) : nextStep(err, entry);
      return { id, reverted: false, message: `${id} was not reverted: ${refusal(err, entry, why)}${next}` };
    }
  }

  /** Reverts every entry of key `keyId` not reverted yet, newest first (revert entries themselves are skipped). */
  async revertKey(keyId: string): Promise<RevertOutcome[]> {
    await this.log.refresh();
    return this.revertAll(this.log.all().filter((e) => e.key_id === keyId));
  }

  /** Reverts every entry of MCP session `session` not reverted yet, newest first (as {@link revertKey}). */
  async revertSession(session: string): Promise<RevertOutcome[]> {
    await this.log.refresh();
    return this.revertAll(this.log.all().filter((e) => e.session === session));
  }

  /**
   * Reverts `entries` (give them newest first) one after the other, skipping revert entries and
   * entries already reverted. @returns one outcome per entry tried.
   */
  async revertAll(entries: ActivityEntry[]): Promise<RevertOutcome[]> {
    const out: RevertOutcome[] = [];
    for (const entry of entries) {
      if (entry.via === 'revert' || this.log.isReverted(entry)) continue;
      out.push(await this.revert(entry.id));
    }
    return out;
  }

  /**
   * Applies what undoes `entry` for `scope`. @returns which of its changes were left as they
   * are and whether the undo was placed on a changed text (text kinds whose note changed since; else {@link EXACT}).
   * @throws ToolError when the vault refuses the undo (see {@link refusal}), or the entry's undo
   *   data is damaged (invalid_argument).
   */
  private async undo(entry: ActivityEntry, scope: AccessScope): Promise<UndoDone> {
    if ((entry.kind === 'edit' || entry.kind === 'properties') && isPatchOnly(entry)) {
      await this.assertSameNote(entry, scope);
      return this.undoPatch(entry, scope);
    }
    let texts: { before: string | null; after: string | null };
    try {
      texts = textsOf(entry);
    } catch (err) {
      throw new ToolError('invalid_argument', (err as Error).message);
    }
    await this.assertSameNote(entry, scope);
    const { before, after } = texts;
    const writes = this.notes.writes;
    switch (entry.kind) {
      case 'edit':
      case 'properties':
        return this.undoText(entry, before ?? '', after ?? '', scope);
      case 'create':
        await writes.apply({ tool: REVERT_TOOL, kind: 'delete', path: entry.path, expectedHash: entry.hash_after ?? undefined }, scope);
        return EXACT;
      case 'delete':
        if (entry.undo.not_utf8)
          throw new ToolError(
            'invalid_argument',
            `'${entry.path}' was not UTF-8 text, so the log could not keep its exact bytes and nothing was put back; restore it from the trash (the system trash, or the vault's .trash folder), where it is intact.`,
          );
        await writes.apply({ tool: REVERT_TOOL, kind: 'create', path: entry.path, content: before ?? '', restore: true }, scope);
        return EXACT;
      case 'move':
        await writes.apply({ tool: REVERT_TOOL, kind: 'move', path: entry.path, to: entry.from ?? '' }, scope);
        return EXACT;
      case 'folder':
        if (entry.removed) await writes.apply({ tool: REVERT_TOOL, kind: 'folder', path: entry.path }, scope);
        else await writes.removeEmptyFolder(REVERT_TOOL, entry.path, scope);
        return EXACT;
      case 'widget': {
        const id = entry.path.slice(entry.path.lastIndexOf('/') + 1).replace(/\.html$/, '');
        // The text put back gets the writer it had (logged with the change), never the reverting key: the record follows the text.
        const restoring = { writer: entry.writer_before };
        if (before === null) await this.notes.widgets.remove(id, entry.hash_after ?? '', scope);
        else if (after === null) await this.notes.widgets.create(id, before, scope, restoring);
        else await this.notes.widgets.replace(id, before, entry.hash_after ?? '', scope, null, restoring);
        return EXACT;
      }
    }
  }

  /**
   * Refuses to act on a note other than the one `entry` changed (or moved, or created) that sits
   * at its path now. The note's creation time, read from disk now (NoteWriter.noteCreated; for a
   * moved folder NoteWriter.folderCreated), must be the one logged right after the change
   * (`entry.created`, the same read), within {@link CLOCK_SLACK_MS}: a rename or move and a write
   * in place keep it, so a note the user edited, or moved away and back, is reverted; any other
   * note there is refused, whenever it was made (a new one from the template after the change, an
   * older one, or one made between the changed note and the change, renamed there), and so is the
   * same text written anew as a new file (a sync tool, git, an editor that saves by replacing the
   * file): the revert cannot tell that from another note, so the user undoes it by hand from the
   * diff. Where the entry also logged the note's file on disk (`entry.inode`; kept
   * where the vault's writes keep the file), another file there is refused though its creation time
   * is the logged one (two notes made in the same millisecond; a program that replaced the file and
   * kept the time). Where the file system keeps no creation time, the time read is that of the last change,
   * so any later change refuses (the safe side). A time that cannot be read now refuses too.
   * Entries logged without `created` (before it was kept, or where it was unknown) keep the older,
   * weaker check: only a note made after the change is refused; a folder is then not judged.
   * @throws NotTheNoteError as said; ToolError as NoteWriter.noteCreated (no note there the key may write).
   */
  private async assertSameNote(entry: ActivityEntry, scope: AccessScope): Promise<void> {
    if (!SAME_NOTE_KINDS.has(entry.kind)) return;
    const logged = entry.created !== undefined && entry.created > 0 ? entry.created : null;
    if (entry.folder && logged === null) return;
    const created = entry.folder
      ? await this.notes.writes.folderCreated(entry.path)
      : await this.notes.writes.noteCreated(entry.path, scope);
    // No folder there: the move back refuses that in its own words.
    if (created === null) return;
    if (!(created > 0)) {
      if (logged === null) return;
      throw new NotTheNoteError(entry, 'unknown');
    }
    const later = created > Date.parse(entry.at) + CLOCK_SLACK_MS;
    if (logged === null) {
      if (later) throw new NotTheNoteError(entry, 'later');
      return;
    }
    if (Math.abs(created - logged) > CLOCK_SLACK_MS)
      throw new NotTheNoteError(entry, later ? 'later' : created < logged ? 'older' : 'other');
    // Logged only where the vault's writes keep a note's file (NoteWriter.identityOnDisk).
    const inode = entry.inode === undefined || entry.folder ? null : this.notes.writes.noteInode(entry.path);
    if (inode !== null && inode !== entry.inode) throw new NotTheNoteError(entry, 'replaced');
  }

  /**
   * Undoes a text change logged as a patch only (undo-data.ts): exact when the note is still
   * what the change left; else each hunk placed three-way on the text now against the fingerprint
   * of the text after ({@link locateHunks}), the ones the later text touched left out. Hash-guarded as {@link undoText}.
   * @returns the hunks left out, and whether the note had changed since.
   * @throws ToolError('conflict') when the note is already as before, or every hunk is left out.
   */
  private async undoPatch(entry: ActivityEntry, scope: AccessScope): Promise<UndoDone> {
    const writes = this.notes.writes;
    const patch = entry.undo.patch ?? [];
    for (let attempt = 0; attempt < REVERT_ATTEMPTS; attempt++) {
      const current = await writes.currentText(entry.path, scope);
      const hash = hashText(current);
      if (hash === entry.hash_before) throw new ToolError('conflict', `'${entry.path}' already reads as it did before this change.`);
      let next: string;
      let left: number[] = [];
      if (hash === entry.hash_after) {
        try {
          next = applyHunks(current, patch);
        } catch {
          throw new ToolError('invalid_argument', `Activity entry ${entry.id} is damaged: its patch does not fit its text.`);
        }
      } else {
        if (!entry.undo.after_sums) throw new ToolError('conflict', unsummed(entry));
        const located = locateHunks(entry.undo, current);
        left = located.left;
        if (located.ready.length === 0)
          throw new ToolError('conflict', `'${entry.path}' changed since, right where this change is, so it was left as it is.`);
        next = applyHunks(current, located.ready);
      }
      if (await this.writeRevert(entry, hash, next, left.length, scope)) return { left, merged: hash !== entry.hash_after };
    }
    throw new ToolError('conflict', `'${entry.path}' kept changing while it was reverted; try again.`);
  }

  /**
   * Undoes a text change: the text before when the note is still what the change left; else
   * the undo's hunks (after → before) placed three-way on the note's text now, the ones its
   * later text touches left out. Writes through NoteWriter.writeExactText (hash-guarded).
   * @returns the hunks left out, and whether the note had changed since.
   * @throws ToolError('conflict') when the note is already as before, or every hunk is left out.
   */
  private async undoText(entry: ActivityEntry, before: string, after: string, scope: AccessScope): Promise<UndoDone> {
    const writes = this.notes.writes;
    for (let attempt = 0; attempt < REVERT_ATTEMPTS; attempt++) {
      const current = await writes.currentText(entry.path, scope);
      if (current === before) throw new ToolError('conflict', `'${entry.path}' already reads as it did before this change.`);
      let next = before;
      let left: number[] = [];
      const merged = hashText(current) !== entry.hash_after;
      if (merged) {
        const placed = placeHunks(after, current, buildHunks(after, before));
        const ready = placed.filter((h) => !h.stale);
        left = placed.flatMap((h, i) => (h.stale ? [i] : []));
        if (ready.length === 0)
          throw new ToolError('conflict', `'${entry.path}' changed since, right where this change is, so it was left as it is.`);
        next = applyHunks(current, ready);
      }
      if (await this.writeRevert(entry, hashText(current), next, left.length, scope)) return { left, merged };
    }
    throw new ToolError('conflict', `'${entry.path}' kept changing while it was reverted; try again.`);
  }

  /**
   * Writes `next`, a text revert's result, over the note `entry` changed, only if the note's
   * text still hashes to `baseHash` (NoteWriter.writeExactText), and records on the revert's own
   * log entry how many hunks were `left` out. Shared by {@link undoPatch} and {@link undoText}.
   * @returns true when written; false when the note changed since it was read (BaseChangedError),
   *   so the caller reads it again and retries.
   * @throws ToolError when the vault refuses the write.
   */
  private async writeRevert(entry: ActivityEntry, baseHash: string, next: string, left: number, scope: AccessScope): Promise<boolean> {
    try {
      await this.notes.writes.writeExactText(
        { tool: REVERT_TOOL, kind: entry.kind === 'properties' ? 'properties' : 'edit', path: entry.path, baseHash, text: next },
        scope,
      );
    } catch (err) {
      if (err instanceof BaseChangedError) return false;
      throw err;
    }
    const by = this.log.get(entry.id)?.reverted_by;
    if (left > 0 && by) this.log.setLeft(by, left);
    return true;
  }
}

/**
 * One sentence on a successful revert, true to what it did: a text change undone on the text it
 * left says the note is as it was before (a revert's revert: as the entry it redoes left it, or,
 * when that revert left some of its changes as they were, that it is made again where it could be
 * and those stay); one
 * placed on a text that changed since says the later changes are kept, and names the changes left
 * as they are by their line in `activity <id>`'s diff.
 * @param linkers for a move, the notes whose links moving back rewrote (the revert's own entry's `linkers`).
 */
function revertedSentence(entry: ActivityEntry, done: UndoDone, by: string | undefined, linkers: readonly string[] = []): string {
  const what = entry.reverts ? `, which redoes ${entry.reverts}` : '';
  const as = by ? ` (logged as ${by})` : '';
  const links = linkers.length === 1 ? linkers[0] : `${linkers.length} notes`;
  const where =
    entry.kind === 'move'
      ? `${entry.path} is back at ${entry.from}${linkers.length ? `, and the links to it in ${links} are rewritten back` : ''}`
      : entry.kind === 'delete'
        ? `${entry.path} is back`
        : entry.kind === 'create'
          ? `${entry.path} is moved to the trash (it did not exist before)`
          : entry.kind === 'folder'
            ? `the folder ${entry.path} ${entry.removed ? 'is back' : 'is removed (it did not exist before)'}`
            : done.merged
              ? `${entry.reverts ? 'made again' : 'undone'} in ${entry.path}, whose later changes are kept`
              : entry.reverts && (entry.left ?? 0) > 0
                ? redonePartly(entry, entry.reverts, entry.left ?? 0)
                : `${entry.path} is as ${entry.reverts ? `${entry.reverts} left it` : 'it was before'}`;
  const left = done.left.length;
  if (left === 0) return `Reverted ${entry.id}${what}: ${where}${as}.`;
  const s = left === 1;
  const heads = diffPreview(entry, Infinity).filter((l) => l.kind === 'head');
  const lines = done.left.map((i) => heads[i]?.text.replace(/^Line /, '')).filter((l) => l !== undefined);
  const named = lines.length === left ? ` at line${s ? '' : 's'} ${lines.join(', ')} (see "activity ${entry.id}")` : '';
  return `Reverted ${entry.id}${what} on ${entry.path}${as}, except ${s ? 'the' : left} change${s ? '' : 's'}${named}, which the note's later text touches: left as ${s ? 'it is' : 'they are'}.`;
}

/**
 * What redoing a revert that left `left` of the changes of `redone` as the note had them says:
 * the change is made again where the revert undid it, and those stay as they are (they were never
 * undone), so the note is not as `redone` left it.
 */
function redonePartly(entry: ActivityEntry, redone: string, left: number): string {
  const s = left === 1;
  return `${redone} is made again in ${entry.path} where ${entry.id} undid it; ${s ? 'the change' : `the ${left} changes`} of ${redone} it left as ${s ? 'it was stays' : 'they were stay'} as the note has ${s ? 'it' : 'them'}`;
}

/**
 * The first move logged after `entry` (and not reverted) that took its path away: a move of that
 * note, or of a folder above it. Only the log's own moves are known; one made in Obsidian is not.
 * @returns that move's entry, or undefined when the log holds none
 */
function laterMoveOf(log: ActivityLog, entry: ActivityEntry): ActivityEntry | undefined {
  const newestFirst = log.all();
  const at = newestFirst.findIndex((e) => e.id === entry.id);
  if (at < 0) return undefined;
  const since = newestFirst.slice(0, at).reverse();
  return since.find(
    (e) =>
      e.kind === 'move' && e.from !== undefined && !log.isReverted(e) && (entry.path === e.from || entry.path.startsWith(`${e.from}/`)),
  );
}

/**
 * The next step after a revert refused because its note is not found, when the log shows a later
 * move took it away ({@link laterMoveOf}): where the note went, and to revert that move first.
 */
function movedSince(entry: ActivityEntry, move: ActivityEntry): string {
  const from = move.from ?? '';
  const now = `${move.path}${entry.path.slice(from.length)}`;
  const what = move.folder ? `the folder '${from}' to '${move.path}'` : `it to '${move.path}'`;
  return ` The log shows ${move.id} moved ${what}, so the note is at '${now}' if nothing moved it since: revert ${move.id} first, then this one.`;
}

/**
 * What to do next about a revert refused because the key may no longer read the note (its own
 * frontmatter, a closed folder, its roots): open it to the key again, or undo the change by hand.
 */
function hiddenNextStep(entry: ActivityEntry): string {
  return ` Revert again once "${entry.key_label}" may read it, or undo it by hand: see its diff (activity ${entry.id}, or the Agent activity view).`;
}

/**
 * What the user can do after a refused revert, as a sentence that follows {@link refusal}
 * (with a leading space), or '' when there is nothing to do (already as before, a damaged entry)
 * or the refusal says it already ("try again", a folder that is no longer empty).
 */
function nextStep(err: ToolError, entry: ActivityEntry): string {
  const byHand = ` To undo it by hand, see its diff (activity ${entry.id}, or the Agent activity view).`;
  if (err instanceof NotTheNoteError) {
    const noun = entry.folder ? 'folder' : 'note';
    const back = ` If the ${noun} ${entry.kind === 'move' ? 'moved' : 'changed'} was renamed or moved since, move what is at '${entry.path}' now aside, move that ${noun} back to '${entry.path}' and revert again`;
    if (entry.kind === 'move') return `${back}; or move it to '${entry.from ?? ''}' yourself.`;
    return `${back}.${entry.kind === 'create' ? '' : byHand}`;
  }
  if (err instanceof BaseChangedError) return '';
  if (err.why === 'replaced')
    return ` Look at what stands at '${entry.path}' now (a sync client or git may have put it there); revert again once the note is back.`;
  if (err instanceof MoveBlockedError) {
    const them = err.blockers.length === 1 ? 'it' : 'them';
    return ` Move it back in Obsidian yourself (Obsidian updates the links), or revert again once "${entry.key_label}" may change ${them}.`;
  }
  switch (err.code) {
    case 'not_found':
      if (entry.kind === 'create')
        return ' If it was deleted, there is nothing left to revert; if it was moved or renamed, move it back and revert again.';
      return ` If it was moved or renamed, move it back and revert again.${entry.kind === 'move' || entry.kind === 'folder' ? '' : byHand}`;
    case 'exists': {
      const target = entry.kind === 'move' ? entry.from : entry.path;
      return ` Move or rename what is at '${target}' now, then revert again.`;
    }
    case 'forbidden':
      if (err.why === 'file') return ' Make it writable, then revert again.';
      return err.why === 'protected' ? laterFirst(entry) + byHand : byHand;
    case 'invalid_argument':
      return err.why === 'yaml' ? laterFirst(entry) + byHand : '';
    case 'conflict':
      return err.message.startsWith('Note ') || /right where this change is/.test(err.message) || err.message === unsummed(entry)
        ? byHand
        : '';
    default:
      return '';
  }
}

/**
 * Why an edit logged as a patch only, before the log kept the fingerprint of the text it left
 * (undo-data.ts `after_sums`), is not reverted on a note that changed since: nothing tells
 * where its lines went, and no guess is written.
 */
function unsummed(entry: ActivityEntry): string {
  return `'${entry.path}' changed since, and this change was logged by an earlier version that did not keep what a revert needs to find its lines among later changes, so it was left as it is.`;
}

/**
 * The step for a revert refused because undoing the change on the note's text now would touch
 * what no revert may write (an access rule, frontmatter that parses): the later changes made it so.
 */
function laterFirst(entry: ActivityEntry): string {
  return ` Revert the later changes to '${entry.path}' first (newest first), then this one.`;
}

/** Most notes a refused move's sentence names; past it, "and N more". */
const BLOCKERS_NAMED = 3;

/**
 * Why the vault refused a revert, as the rest of one sentence. A move (back, or redone) refused
 * for other notes (MoveBlockedError) names them, not the moved note: the linkers whose links it
 * would update, or the notes its folder holds, that the key may not change now. The user reads
 * this, never an agent, so naming a note the key may not see tells it nothing. Any other access
 * or file system refusal names the rule that refused it (ToolError `why`, set where the rule is
 * decided): an access property or frontmatter the undo would make, read-only, a closed folder,
 * the key's roots, the file's permissions; never a guess among them.
 * @param unreadable for a note the revert found missing, why the key may not read it now (NoteStore.unreadableReason).
 */
function refusal(err: ToolError, entry: ActivityEntry, unreadable: ReturnType<NoteStore['unreadableReason']> = null): string {
  const who = `"${entry.key_label}"`;
  if (err instanceof BaseChangedError) return `'${entry.path}' changed while it was reverted; try again.`;
  if (err instanceof MoveBlockedError) {
    const shown = err.blockers.slice(0, BLOCKERS_NAMED).map((p) => `'${p}'`);
    const more = err.blockers.length - shown.length;
    const names =
      more > 0
        ? `${shown.join(', ')} and ${more} more`
        : `${shown.slice(0, -1).join(', ')}${shown.length > 1 ? ' and ' : ''}${shown[shown.length - 1]}`;
    const are = err.blockers.length === 1 ? 'is' : 'are';
    const moving = `moving '${entry.path}' back to '${entry.from ?? ''}'`;
    return err.rule === 'links'
      ? `${moving} would update the links in ${names}, which ${are} now read-only or closed to ${who}, so nothing was moved.`
      : `'${entry.path}' holds ${names}, which ${are} now read-only, quarantined or closed to ${who}, so nothing was moved.`;
  }
  if (entry.kind === 'delete' && (err.code === 'forbidden' || err.code === 'not_found'))
    return `'${entry.path}' could not be put back for ${who} (${err.message.replace(/\.$/, '')}); restore it from the trash (the system trash, or the vault's .trash folder), where it is intact.`;
  const note = entry.kind === 'move' ? `'${entry.path}' or '${entry.from ?? ''}'` : `'${entry.path}'`;
  const left = 'so it was left as it is.';
  // Undoing on the text now (the later changes kept) would make a block no revert may write.
  const undoing = `undoing it on the text '${entry.path}' has now would`;
  switch (err.why) {
    case 'protected':
      return `${undoing} add, change or remove its 'access' or 'agent_overrides' properties, which a revert may not do, ${left}`;
    case 'yaml':
      return `${undoing} leave frontmatter that does not parse, ${left}`;
    case 'replaced':
      return `${note} was replaced on disk by another program (a symbolic link or another entry stands at its path now), and nothing is written through it, ${left}`;
    case 'read-only':
      return `'${entry.path}' is now read-only for ${who}, ${left}`;
    case 'closed':
      return `${note} is now in a folder closed to agents, ${left}`;
    case 'roots':
      return `${note} is now outside the folders ${who} may use, ${left}`;
    case 'file':
      if (err.code === 'forbidden') return `${note} is read-only on disk (file permissions or a read-only drive), ${left}`;
  }
  switch (err.code) {
    case 'not_found':
      switch (unreadable) {
        case 'gone':
          return `'${entry.path}' is no longer there, ${left}`;
        case 'hidden':
          return `'${entry.path}' is now hidden from ${who} by its own frontmatter ('access: private', or 'no-access' for ${who} in 'agent_overrides'), ${left}`;
        case 'quarantined':
          return `'${entry.path}' is now in a folder closed to agents, ${left}`;
        case 'roots':
          return `'${entry.path}' is now outside the folders ${who} may use, ${left}`;
        default:
          return `'${entry.path}' is gone, private now, or out of ${who}'s reach.`;
      }
    case 'forbidden':
      return `'${entry.path}' is now read-only or closed to ${who}, ${left}`;
    case 'exists':
      return `'${entry.kind === 'move' ? entry.from : entry.path}' is taken now, so nothing was put back there.`;
    case 'conflict':
      // The writers' own conflict speaks to an agent (read_note, expected_hash); the user gets what it means here.
      return err.message.startsWith('Note ') ? `'${entry.path}' changed since, and reverting would lose the later text.` : err.message;
    default:
      return err.message;
  }
}
