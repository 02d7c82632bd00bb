import type { PluginFile } from '../../vault/plugin-files/plugin-file';
import type { WriterLock } from '../../vault/plugin-files/writer-lock';
import { fileSystemRefusal } from '../../vault/writes/write-errors';
import { ToolError } from '../../errors';
import { parseProposals, serializeProposals } from './proposal-codec';
import { ProposalMemory } from './proposal-memory';
import { isOpen } from '../proposal-state';

/** How many decided (accepted, partly accepted, rejected) proposals the file keeps for proposal_status. */
const KEEP_RESOLVED = 200;

/** What one write of the proposals file came to: the write's error (null when it was written) and the proposals staged into it that the file holds. */
interface SaveOutcome {
  error: Error | null;
  /** Ids of the proposals staged into this write that the file holds afterwards (every one when it was written). */
  landed: ReadonlySet<string>;
}

/** One write of the proposals file, shared by every save asked for before it starts ({@link ProposalFile.save}). */
interface SaveBatch {
  /** Ids of the proposals staged into this write: taken back out of memory when it fails and the file does not hold them. */
  staged: Set<string>;
  done: Promise<SaveOutcome>;
  finish: (outcome: SaveOutcome) => void;
}

/**
 * The persistence layer of ProposalStore (docs/architecture.md#proposals): the proposals in
 * memory ({@link ProposalMemory}) persist in `proposals.json` in the plugin folder, written only
 * while this instance holds the plugin folder's writer lock, each write a group commit
 * ({@link save}), read again when another instance wrote it ({@link refresh}).
 */
export abstract class ProposalFile extends ProposalMemory {
  /** The last write of the file queued (never rejects: each save's outcome goes to its batch). */
  private writing: Promise<void> = Promise.resolve();
  /** The write the next saves share, not started yet; null when none is queued. */
  private nextBatch: SaveBatch | null = null;
  /** The file's stamp (PluginFile.stamp) when {@link refresh} last read it; undefined before. */
  private stampSeen?: string;

  /** Where proposals persist (`proposals.json` in the plugin folder); given by ProposalStore's constructor. */
  protected abstract readonly file: PluginFile;
  /** The clock, for `created_at` / `resolved_at` and the name of a damaged file kept aside. */
  protected abstract readonly now: () => Date;
  /**
   * The plugin folder's writer lock (writer-lock.ts): the file is written only while this
   * instance holds it, so a second instance never drops this one's proposals. Null (unit tests
   * of a single store): the file is written freely.
   */
  protected abstract readonly lock: WriterLock | null;

  /**
   * Reads the proposals file and takes the writer lock. A file that does not parse is moved
   * aside (kept for the user, never silently dropped) and the store starts empty.
   * @returns `{problem}`, one sentence for a Notice, when the file was damaged or another
   *   instance holds the lock (this one then stages and decides nothing until it is free);
   *   `{stopped: true}` when the plugin unloaded meanwhile (start nothing more); else `{}`.
   */
  async load(): Promise<{ problem?: string; stopped?: true }> {
    if (this.lock?.isClosed) return { stopped: true };
    const locked = await this.lock?.acquire().catch((err: unknown) => {
      if (this.lock?.isClosed) return 'stopped' as const;
      throw err;
    });
    if (locked === 'stopped') return { stopped: true };
    const loaded = await this.readFile(!locked);
    if (this.lock?.isClosed) return { stopped: true };
    if (locked) return { problem: `Vault MCP: ${locked.message}` };
    return loaded;
  }

  /**
   * Before any change to the proposals: makes sure this instance is the plugin folder's writer
   * (see writer-lock.ts); when it took the lock over just now, the file is read again first,
   * so what the other instance wrote is kept. Review actions call it before touching the vault.
   * @throws WriterLockedError (ToolError 'unavailable') while another instance writes the file.
   */
  async ensureWriter(): Promise<void> {
    if (this.lock && (await this.lock.ensure()) === 'acquired') await this.readFile();
  }

  /**
   * While another instance holds the writer lock (it alone writes the file), takes in what it
   * wrote since this store last read the file, so this one lists its proposals too (it decides
   * none until it takes over, {@link ensureWriter}). Obsidian fires no event for a file in the
   * config folder, so readers call this first: one `stat`, and a read only when the file's
   * mtime, ctime or size changed (writes are whole copies swapped in: never half a file). The
   * file is read as it is (PluginFile.readAsIs): the holder's temp copies are its write in
   * progress, and this instance never removes or renames them.
   * Never throws: a file that cannot be read now is read at the next call.
   */
  async refresh(): Promise<void> {
    if (!this.lock || this.lock.isHeld || this.lock.isClosed) return;
    try {
      const seen = await this.file.stamp();
      if (seen !== this.stampSeen && !(await this.readFile(false)).problem) this.stampSeen = seen;
    } catch {
      // Read again at the next call.
    }
  }

  /**
   * Reads the proposals file into the store (see {@link load}).
   * @param mayRepair the writer lock's holder reads: a write a crash interrupted is finished or
   *   undone first (PluginFile.read) and a damaged file is moved aside (the file is its). Any
   *   other instance reads the file as it is (PluginFile.readAsIs): the holder's temp copies are live.
   */
  private async readFile(mayRepair = true): Promise<{ problem?: string }> {
    const text = mayRepair ? await this.file.read() : await this.file.readAsIs();
    for (const id of this.byId.keys()) this.hunkCache.forget(id);
    this.byId.clear();
    if (text === null) return {};
    let problem: string | undefined;
    try {
      for (const p of parseProposals(text)) this.byId.set(p.id, p);
    } catch (err) {
      if (!mayRepair) return { problem: `Vault MCP could not read its proposals file (${(err as Error).message}).` };
      const aside = await this.file.keepCorruptAside(this.now());
      problem = `Vault MCP could not read its proposals file (${(err as Error).message}); it was kept as ${aside} and pending changes start empty.`;
    }
    this.emit({ type: 'loaded' });
    return problem ? { problem } : {};
  }

  /** Waits until every write of the proposals file issued so far has finished (never rejects). */
  flush(): Promise<void> {
    return this.writing;
  }

  /**
   * Asks for a write of the whole file (a group commit): every save asked for while a write is
   * under way shares the next write, which is serialized from memory when it starts, so a
   * burst of stages or decisions costs two writes, not one each, and each write holds every
   * change made before it started.
   * @param staged the id of a proposal just staged into memory: when this write fails and the
   *   file (read back) does not hold it, it is taken out of memory before the next write starts,
   *   so no later write puts on disk a proposal the agent was told was not staged.
   * @returns the write's outcome; never rejects.
   */
  protected save(staged?: string): Promise<SaveOutcome> {
    let batch = this.nextBatch;
    if (batch === null) {
      let finish!: (outcome: SaveOutcome) => void;
      const done = new Promise<SaveOutcome>((resolve) => (finish = resolve));
      const queued: SaveBatch = { staged: new Set(), done, finish };
      this.nextBatch = batch = queued;
      this.writing = this.writing.then(() => this.writeBatch(queued));
    }
    if (staged !== undefined) batch.staged.add(staged);
    return batch.done;
  }

  /** Makes the write `batch` shares (see {@link save}); oldest resolved proposals beyond KEEP_RESOLVED are dropped first. Never throws. */
  private async writeBatch(batch: SaveBatch): Promise<void> {
    if (this.nextBatch === batch) this.nextBatch = null;
    const resolved = this.all().filter((p) => !isOpen(p));
    for (const p of resolved.slice(0, Math.max(0, resolved.length - KEEP_RESOLVED))) {
      this.byId.delete(p.id);
      this.hunkCache.forget(p.id);
    }
    try {
      await this.file.write(serializeProposals(this.all()));
      batch.finish({ error: null, landed: batch.staged });
    } catch (error) {
      const landed = await this.stagedInFile(batch.staged);
      for (const id of batch.staged) {
        if (landed.has(id)) continue;
        this.byId.delete(id);
        this.hunkCache.forget(id);
      }
      batch.finish({ error: error instanceof Error ? error : new Error(String(error)), landed });
    }
  }

  /**
   * After a failed write: which of `ids` the file holds as read now (PluginFile.read: a whole copy
   * the write left is swapped in first, as the next start would). @returns those ids; none when
   * the file cannot be read or parsed.
   */
  private async stagedInFile(ids: ReadonlySet<string>): Promise<Set<string>> {
    const held = new Set<string>();
    if (ids.size === 0) return held;
    try {
      const text = await this.file.read();
      for (const p of text === null ? [] : parseProposals(text)) if (ids.has(p.id)) held.add(p.id);
    } catch {
      // Unreadable now: the next write, made from memory, replaces it.
    }
    return held;
  }
}

/**
 * The agent's refusal for a write of the proposals file that failed: the file system's refusal
 * (full disk, permissions: fileSystemRefusal) naming the proposals file, or, for a file or
 * folder gone mid-write (ENOENT: another program moved or removed the plugin's files), a
 * sentence about the proposals file, not about a note.
 * @param error what the write threw. @param outcome what became of the change, e.g. "nothing was staged".
 * @returns the ToolError, or `error` itself when it is no file system refusal (a bug).
 */
export function proposalsFileRefusal(error: Error, outcome: string): Error {
  if ((error as NodeJS.ErrnoException | null)?.code === 'ENOENT')
    return new ToolError(
      'unavailable',
      `Vault MCP's proposals file was moved or removed by another program while this change was saved; ${outcome}. Retry in a moment; if this repeats, ask the user to check the plugin folder.`,
    );
  return fileSystemRefusal(error, 'the proposals file', outcome) ?? error;
}
