import { randomBytes } from 'node:crypto';
import type { AccessScope } from '../vault/access/access';
import type { PluginFile } from '../vault/plugin-files/plugin-file';
import type { AppliedChange, AppliedChanges } from '../vault/writes/applied-change';
import { entryBytes, parseActivity, serializeActivity } from './activity-codec';
import type { ActivityEntry, ActivityLimits } from './types';
import { undoOf } from './undo-data';

/** What changed in the log, for the view and the status bar. */
export type ActivityEvent = { type: 'recorded'; entry: ActivityEntry } | { type: 'updated'; entry: ActivityEntry } | { type: 'loaded' };

/** The part of PluginFile the log uses (tests keep the file in memory); `writeIfUnchanged` where several instances write it. */
export type ActivityFile = Pick<PluginFile, 'path' | 'read' | 'write' | 'keepCorruptAside'> &
  Partial<Pick<PluginFile, 'writeIfUnchanged' | 'stamp'>>;

/** Milliseconds in a day. */
const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * How long after writing the file a log that shares it with another instance waits before
 * reading it back, ms: long enough for a write the other began before ours landed (its own
 * swap of a few file operations) to land too, so the read sees it.
 */
export const SETTLE_MS = 60;
/** How often in a row a save merges and writes the file again because another instance's write came between (then it writes unchecked once). */
const REWRITES = 5;

/**
 * The agent activity log (docs/architecture.md#agent-activity): every change an agent caused, as the
 * write primitives report it ({@link follow}: force-mode writes, accepted proposals, and the
 * user's reverts, each attributed by the write's actor), persisted in its own file in the
 * plugin folder. Bounded by {@link ActivityLimits}: entries older than `maxDays` and, past
 * `maxMegabytes`, the oldest entries of the key taking the most room (the newest always
 * stays; text only an entry held is kept aside first, see {@link prune}). A file that
 * cannot be read is kept aside and reported, never silently dropped.
 */
export class ActivityLog {
  /** Oldest first. */
  private entries: ActivityEntry[] = [];
  private readonly byId = new Map<string, ActivityEntry>();
  /** Each entry's size in the file, bytes, computed once (and again after it changes). */
  private readonly sizes = new WeakMap<ActivityEntry, number>();
  private readonly listeners = new Set<(event: ActivityEvent) => void>();
  private saving: Promise<void> | null = null;
  private dirty = false;
  /** Ids this log dropped (limits), so a merge does not take them back from the file. */
  private readonly droppedIds = new Set<string>();
  /** The text this log last wrote or read, so a merge skips a file no one else changed. */
  private lastWritten: string | null = null;
  /** The file's text at the last merge's read (null: no file), which a write checks is still there. */
  private lastRead: string | null = null;
  /** False until {@link load} has read the file: nothing is written before, so a file not read yet is never overwritten. */
  private loaded = false;
  /** The file's stamp (PluginFile.stamp) when {@link refresh} last read it; undefined before. */
  private stampSeen?: string;
  /** True once the file held text this log did not write: another instance writes it too, so each write is checked ({@link scheduleSave}). */
  private shared = false;

  /**
   * @param file where the log persists (`activity.json` in the plugin folder).
   * @param limits the user's limits, read at every change (settings `activity`).
   * @param now the clock, for entry times and the age limit.
   * @param keepAside called (synchronously; it may start an async write) once per trim with
   *   every entry the size limit drops while it still holds the only copy of text an agent
   *   replaced or deleted (see {@link prune}), never with none; main.ts writes that text to the
   *   vault's `.trash` folder and tells the user in one Notice.
   */
  constructor(
    private readonly file: ActivityFile,
    private readonly limits: () => ActivityLimits,
    private readonly now: () => Date = () => new Date(),
    private readonly keepAside?: (entries: ActivityEntry[]) => void,
  ) {}

  /**
   * Reads the log file; entries recorded before it was read are kept after the loaded ones.
   * A file that does not parse is moved aside (`activity.json.corrupt-<time>`) and the log
   * starts from what this run recorded.
   * @returns `{problem}`, one sentence for a Notice, when the file was damaged or unreadable; else `{}`.
   */
  async load(): Promise<{ problem?: string }> {
    let text: string | null;
    try {
      text = await this.file.read();
    } catch (err) {
      return {
        problem: `Vault MCP could not read its agent activity file ${this.file.path} (${(err as Error).message}); it was left as it is, and this session's activity is kept in memory only.`,
      };
    }
    let problem: string | undefined;
    let loaded: ActivityEntry[] = [];
    if (text !== null) {
      try {
        loaded = parseActivity(text);
        this.lastWritten = text;
      } catch (err) {
        const aside = await this.file.keepCorruptAside(this.now());
        problem = `Vault MCP could not read its agent activity file (${(err as Error).message}); it was kept as ${aside} and the activity log starts empty.`;
      }
    }
    this.loaded = true;
    const recorded = this.entries.filter((e) => !loaded.some((l) => l.id === e.id));
    this.entries = [...loaded, ...recorded];
    this.byId.clear();
    for (const e of this.entries) this.byId.set(e.id, e);
    if (this.prune() || problem || recorded.length) this.scheduleSave();
    this.emit({ type: 'loaded' });
    return problem ? { problem } : {};
  }

  /** Records every change `applied` reports from now on. @returns the function that stops it (register it for onunload). */
  follow(applied: AppliedChanges): () => void {
    return applied.on((change, scope) => void this.record(change, scope));
  }

  /**
   * Logs one applied change made for `scope`. A change without an actor (an internal write)
   * is not an agent's and is not logged. A revert marks the entry it undid as reverted.
   * @returns the new entry, or null when nothing was logged.
   */
  record(change: AppliedChange, scope: AccessScope): ActivityEntry | null {
    const actor = scope.actor;
    if (!actor) return null;
    const via = actor.via;
    const entry: ActivityEntry = {
      id: `a_${randomBytes(6).toString('hex')}`,
      at: this.now().toISOString(),
      key_id: actor.keyId,
      key_label: scope.label,
      key_roots: [...scope.roots],
      session: actor.session ?? null,
      tool: change.tool,
      kind: change.kind,
      path: change.path,
      ...(change.kind === 'move'
        ? { from: change.from, folder: change.folder, ...(change.linkers.length ? { linkers: [...change.linkers] } : {}) }
        : {}),
      ...(change.kind === 'folder' && change.removed ? { removed: true } : {}),
      ...('created' in change && change.created ? { created: change.created } : {}),
      ...('inode' in change && change.inode ? { inode: change.inode } : {}),
      ...(change.kind === 'widget' ? { writer_before: change.writerBefore ? { ...change.writerBefore } : null } : {}),
      via: via === undefined ? 'agent' : 'revert' in via ? 'revert' : 'proposal',
      ...(via && 'proposal' in via ? { proposal_id: via.proposal, ...(via.hunks ? { hunks: [...via.hunks] } : {}) } : {}),
      ...(via && 'revert' in via ? { reverts: via.revert } : {}),
      ...undoOf(change),
    };
    this.entries.push(entry);
    this.byId.set(entry.id, entry);
    const undone = entry.reverts ? this.byId.get(entry.reverts) : undefined;
    if (undone) {
      undone.reverted_by = entry.id;
      this.sizes.delete(undone);
    }
    this.prune();
    this.scheduleSave();
    this.emit({ type: 'recorded', entry });
    if (undone) this.emit({ type: 'updated', entry: undone });
    return entry;
  }

  /**
   * Notes on a revert entry how many changes of the entry it undid no longer applied and were
   * left as they are. @throws Error for an unknown id.
   */
  setLeft(id: string, left: number): void {
    const entry = this.byId.get(id);
    if (!entry) throw new Error(`No activity entry '${id}'.`);
    entry.left = left;
    this.sizes.delete(entry);
    this.scheduleSave();
    this.emit({ type: 'updated', entry });
  }

  /**
   * Takes in what another instance on the same vault wrote to the file since this log last read
   * it (see {@link mergeFile}), so its changes are listed and can be reverted here before this
   * one writes anything. Obsidian fires no vault event for a file in the config folder (and
   * `Plugin.onExternalSettingsChange` is for data.json only), so readers call this first: one
   * `stat`, and a read only when the file's mtime, ctime or size changed. Every write is a whole
   * copy swapped in (PluginFile.write), so the read never sees half a file. Waits for a save of
   * this log under way; does nothing before {@link load}. Never throws: a file that cannot be
   * read now is read at the next call.
   */
  async refresh(): Promise<void> {
    if (!this.loaded || !this.file.stamp) return;
    try {
      await this.whenSaved();
      const seen = await this.file.stamp();
      if (seen === this.stampSeen) return;
      await this.mergeFile();
      this.stampSeen = seen;
    } catch {
      // Read again at the next call.
    }
  }

  /** Every entry, newest first (a fresh array). */
  all(): ActivityEntry[] {
    return this.entries.slice().reverse();
  }

  /** @returns the entry with `id`, or undefined. */
  get(id: string): ActivityEntry | undefined {
    return this.byId.get(id);
  }

  /**
   * Whether the entry's change is undone now: it was reverted and that revert was not itself
   * reverted (reverting a revert redoes). A revert that fell out of the log still counts.
   */
  isReverted(entry: ActivityEntry): boolean {
    let hops = 0;
    let current = entry;
    while (current.reverted_by !== undefined && hops <= this.entries.length) {
      hops++;
      const by = this.byId.get(current.reverted_by);
      if (!by) break;
      current = by;
    }
    return hops % 2 === 1;
  }

  /** Subscribes to changes. @returns the unsubscribe function. */
  onChange(listener: (event: ActivityEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves once every change so far is written to the file (after {@link load}). @throws what the last write threw. */
  async whenSaved(): Promise<void> {
    while (this.saving) await this.saving;
  }

  /** Size the log takes in its file now, bytes (what `maxMegabytes` bounds). */
  sizeBytes(): number {
    return this.entries.reduce((sum, e) => sum + this.sizeOf(e), 0);
  }

  /** One entry's size in the file (see {@link entryBytes}), remembered. */
  private sizeOf(entry: ActivityEntry): number {
    let size = this.sizes.get(entry);
    if (size === undefined) this.sizes.set(entry, (size = entryBytes(entry)));
    return size;
  }

  /**
   * Drops entries past the age limit, then, past the size limit, the oldest entry of the key
   * whose entries take the most room, again and again (one key's big writes evict its
   * own entries first, never another key's recent ones while it takes more room; the newest
   * entry always stays). An entry dropped for size whose change is not reverted and whose
   * undo data holds text an agent replaced or deleted is handed to `keepAside` first (all of
   * this trim's in one call), so that text is never lost silently. @returns true when any went.
   */
  private prune(): boolean {
    const { maxMegabytes, maxDays } = this.limits();
    const maxBytes = maxMegabytes * 1024 * 1024;
    const oldest = this.now().getTime() - maxDays * DAY_MS;
    const keep = this.entries.filter((e) => Date.parse(e.at) >= oldest);
    const newest = keep[keep.length - 1];
    const byKey = new Map<string, { bytes: number; entries: ActivityEntry[] }>();
    let size = 0;
    for (const e of keep) {
      const bytes = this.sizeOf(e);
      size += bytes;
      const share = byKey.get(e.key_id) ?? { bytes: 0, entries: [] };
      share.bytes += bytes;
      share.entries.push(e);
      byKey.set(e.key_id, share);
    }
    const dropped = new Set<ActivityEntry>();
    while (size > maxBytes) {
      let largest: { bytes: number; entries: ActivityEntry[] } | null = null;
      for (const share of byKey.values()) {
        if (share.entries.length === 0 || (share.entries.length === 1 && share.entries[0] === newest)) continue;
        if (!largest || share.bytes > largest.bytes) largest = share;
      }
      if (!largest) break;
      const victim = largest.entries.shift() as ActivityEntry;
      const bytes = this.sizeOf(victim);
      largest.bytes -= bytes;
      size -= bytes;
      dropped.add(victim);
    }
    const aside = [...dropped].filter((e) => !this.isReverted(e) && holdsReplacedText(e));
    if (aside.length > 0) this.keepAside?.(aside);
    const kept = keep.filter((e) => !dropped.has(e));
    if (kept.length === this.entries.length) return false;
    const stays = new Set(kept);
    for (const e of this.entries)
      if (!stays.has(e)) {
        this.byId.delete(e.id);
        this.droppedIds.add(e.id);
      }
    this.entries = kept;
    return true;
  }

  /**
   * Writes the log soon: one write at a time, the last one carrying every change before it.
   * Each write first merges what is in the file now (another plugin instance on the
   * same vault — a second `npm start`, a second Obsidian window — writes the same file, and
   * writing only what this one holds dropped the other's entries). The plugin folder's writer
   * lock cannot guard this read-merge-write: it is held by one instance for its whole run (the
   * other would log nothing) and the adapter has no exclusive create to make a short one
   * (writer-lock.ts). So once another instance has been seen writing the file, the gap is
   * narrowed from both sides: the file is read again right before the new text is swapped in
   * (PluginFile.writeIfUnchanged; changed since the merge read it: merge again, write nothing),
   * and each write is read back {@link SETTLE_MS} later, and when the file then lacks an entry
   * this log holds (the other's write crossed this one between check and swap), merged and
   * written again. At most {@link REWRITES} retries in a row; the entries stay in memory for the
   * next save either way.
   */
  private scheduleSave(): void {
    this.dirty = true;
    if (this.saving || !this.loaded) return;
    this.saving = (async () => {
      try {
        let rewrites = 0;
        while (this.dirty) {
          this.dirty = false;
          await this.mergeFile();
          const text = serializeActivity(this.entries);
          const checked = this.shared && rewrites < REWRITES && this.file.writeIfUnchanged !== undefined;
          if (checked && !(await this.file.writeIfUnchanged?.(text, this.lastRead))) {
            // Another instance wrote the file since the merge read it: merge that too, then write.
            rewrites++;
            this.dirty = true;
            continue;
          }
          if (!checked) await this.file.write(text);
          this.lastWritten = text;
          if (this.shared && rewrites < REWRITES && (await this.droppedByAnotherWrite())) {
            rewrites++;
            this.dirty = true;
          } else rewrites = 0;
        }
      } catch (err) {
        console.error('[vault-mcp] the agent activity file could not be written', err);
        throw err;
      } finally {
        this.saving = null;
      }
    })();
    this.saving.catch(() => undefined);
  }

  /**
   * Takes into memory what another instance added to the file since this one last read or
   * wrote it: entries this log does not hold (and did not drop itself), and a `reverted_by` or
   * `left` set there on an entry both hold. A file that does not parse is kept aside as
   * {@link load} does. Announces the merged entries with a `loaded` event.
   */
  private async mergeFile(): Promise<void> {
    const text = await this.file.read();
    this.lastRead = text;
    if (text === null || text === this.lastWritten) return;
    this.shared = true;
    let onDisk: ActivityEntry[];
    try {
      onDisk = parseActivity(text);
    } catch (err) {
      const aside = await this.file.keepCorruptAside(this.now());
      console.error(`[vault-mcp] the agent activity file did not parse (${(err as Error).message}); it was kept as ${aside}`);
      return;
    }
    let changed = false;
    for (const theirs of onDisk) {
      const mine = this.byId.get(theirs.id);
      if (!mine) {
        if (this.droppedIds.has(theirs.id)) continue;
        this.entries.push(theirs);
        this.byId.set(theirs.id, theirs);
        changed = true;
      } else if ((theirs.reverted_by && !mine.reverted_by) || (theirs.left !== undefined && mine.left === undefined)) {
        if (theirs.reverted_by && !mine.reverted_by) mine.reverted_by = theirs.reverted_by;
        if (theirs.left !== undefined && mine.left === undefined) mine.left = theirs.left;
        this.sizes.delete(mine);
        changed = true;
      }
    }
    if (!changed) return;
    this.entries.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
    this.prune();
    this.emit({ type: 'loaded' });
  }

  /**
   * After a write, {@link SETTLE_MS} later: whether the file lacks an entry this log holds (a
   * write another instance began before this one landed after it). A file that is gone, or does
   * not parse, counts as lacking nothing here: the next merge deals with it.
   */
  private async droppedByAnotherWrite(): Promise<boolean> {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const text = await this.file.read();
    if (text === null || text === this.lastWritten) return false;
    let ids: Set<string>;
    try {
      ids = new Set(parseActivity(text).map((e) => e.id));
    } catch {
      return false;
    }
    return this.entries.some((e) => !ids.has(e.id));
  }

  private emit(event: ActivityEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}

/**
 * Whether an entry's undo data holds text that exists nowhere else once the entry is gone:
 * lines an edit replaced or removed (its reverse patch puts text back), a deleted note's or
 * removed widget's text. A create, a pure insertion, a move or a folder holds none.
 */
export function holdsReplacedText(entry: ActivityEntry): boolean {
  if (entry.via === 'revert') return false;
  if (entry.kind === 'delete' || (entry.kind === 'widget' && entry.hash_after === null)) return (entry.undo.before ?? '') !== '';
  return (entry.undo.patch ?? []).some((h) => h.inserted !== '');
}
