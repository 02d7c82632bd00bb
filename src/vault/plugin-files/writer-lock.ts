import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { DataAdapter } from 'obsidian';
import { ToolError } from '../../errors';

/**
 * One writer per plugin folder (issue 19): two plugin instances on one vault (two `npm start`
 * on one `--vault`, two Obsidian windows, a synced copy running on another device) would each
 * rewrite the plugin's own files (proposals.json) from what they hold in
 * memory, and the last writer would silently drop the other's entries. The first instance
 * takes `writer.lock` in the plugin folder — `{id, pid, host, started_at, heartbeat_at}` as
 * JSON, the heartbeat refreshed every {@link HEARTBEAT_MS} — and every later instance refuses
 * to write those files with a sentence naming the holder, until the lock is released (plugin
 * unload) or stale: no heartbeat for {@link STALE_MS}, or its process is gone (same host, pid
 * not alive). Then the next write takes it over; the caller reloads the files first
 * (`ensure()` answers `acquired`), so nothing the other instance wrote is lost. The activity
 * log does not take this lock: every instance logs its own writes and merges the file before
 * writing it (activity-log.ts), so force writes through either instance stay revertable. This
 * lock could not guard that read-merge-write anyway: it is held for an instance's whole run, not
 * around one write, and without an exclusive create it cannot be made into a short mutex; the
 * log closes that gap by reading its writes back instead (activity-log.ts scheduleSave).
 * Read and written through `app.vault.adapter` like every plugin file. DataAdapter has no
 * exclusive create, so two instances starting in the same instant could both write the lock:
 * each reads it back and the one whose record stayed holds it; the other finds out at its next
 * {@link WriterLock.ensure}.
 */

/** The lock file's name in the plugin folder. */
export const WRITER_LOCK_FILE = 'writer.lock';
/** How often the holder refreshes `heartbeat_at`, ms. */
export const HEARTBEAT_MS = 10_000;
/** A lock whose heartbeat is older than this is stale and may be taken over, ms (over four missed heartbeats). */
export const STALE_MS = 45_000;

/** What the lock file holds. */
export interface LockHolder {
  /** Random id of the holding instance (one per WriterLock). */
  id: string;
  pid: number;
  host: string;
  started_at: string;
  heartbeat_at: string;
}

/** A write refused because another instance holds the lock: `unavailable`, with what to do. */
/** Reads of a lock file that does not parse before it counts as none (WriterLock's readHolder): a heartbeat written in place can be met half-written. */
const TORN_READS = 3;

export class WriterLockedError extends ToolError {
  /** @param holder the instance holding the lock. @param now the time the refusal is judged at. */
  constructor(
    readonly holder: LockHolder,
    now: Date,
  ) {
    const ago = Math.max(0, Math.round((now.getTime() - Date.parse(holder.heartbeat_at)) / 1000));
    super(
      'unavailable',
      `Another Vault MCP instance is writing this vault's plugin files (process ${holder.pid} on ${holder.host}, last seen ${ago} s ago), so this one changes no proposal; nothing was changed. Close the other Obsidian window or npm start on this vault; this one takes over within ${STALE_MS / 1000} s after it stops.`,
    );
    this.name = 'WriterLockedError';
  }
}

/** Options of a {@link WriterLock} (tests replace the clock, the process and the liveness check). */
export interface WriterLockOptions {
  now?: () => Date;
  pid?: number;
  host?: string;
  /** Whether process `pid` runs on this host (default: `process.kill(pid, 0)`). */
  isAlive?: (pid: number) => boolean;
}

/** The lock of one plugin folder, for one plugin instance (see the module comment). */
export class WriterLock {
  /** This instance's id in the lock file. */
  readonly id = randomBytes(8).toString('hex');
  private held = false;
  /** Set by {@link release}: the plugin is unloading, so the lock is never taken again. */
  private closed = false;
  /** The one removal {@link release} starts; later calls return it. */
  private releasing: Promise<void> | null = null;
  private startedAt: string | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly now: () => Date;
  private readonly pid: number;
  private readonly host: string;
  private readonly isAlive: (pid: number) => boolean;

  /** @param adapter the vault's DataAdapter. @param folder the plugin folder (`manifest.dir`), vault-relative. */
  constructor(
    private readonly adapter: DataAdapter,
    private readonly folder: string,
    options: WriterLockOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.pid = options.pid ?? process.pid;
    this.host = options.host ?? hostname();
    this.isAlive = options.isAlive ?? processAlive;
  }

  /** Vault-relative path of the lock file. */
  get path(): string {
    return `${this.folder}/${WRITER_LOCK_FILE}`;
  }

  /** True once {@link release} ran: the plugin is unloading and this lock is never taken again. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** True while this instance holds the lock (as of its last look at the file). */
  get isHeld(): boolean {
    return this.held;
  }

  /**
   * Takes the lock unless another live instance holds it, and keeps its heartbeat going.
   * @returns null when this instance holds it now; else the refusal (its message is the Notice to show).
   * @throws the adapter's errors (a plugin folder that cannot be written); ToolError('unavailable') after {@link release}.
   */
  async acquire(): Promise<WriterLockedError | null> {
    if (this.closed) throw stoppingError();
    const holder = await this.readHolder();
    if (holder && holder.id !== this.id && !this.isStale(holder)) {
      this.stopHeartbeat();
      this.held = false;
      return new WriterLockedError(holder, this.now());
    }
    await this.writeRecord();
    // Read back: of two instances writing the lock at once, the one whose record stayed holds it.
    const after = await this.readHolder();
    if (after && after.id !== this.id) {
      this.held = false;
      return new WriterLockedError(after, this.now());
    }
    if (this.closed) {
      // Released (the plugin unloaded) while this acquire was under way: leave nothing behind.
      await this.adapter.remove(this.path).catch(() => undefined);
      throw stoppingError();
    }
    this.held = true;
    this.startHeartbeat();
    return null;
  }

  /**
   * Call before writing a plugin file: `held` when this instance still holds the lock (read
   * again from the file, so a takeover by another instance is noticed), `acquired` when it
   * took the lock just now (it was free or stale: reload the files before writing them).
   * @throws WriterLockedError when another live instance holds it (write nothing);
   *   ToolError('unavailable') after {@link release} (the plugin is stopping).
   */
  async ensure(): Promise<'held' | 'acquired'> {
    const holder = await this.readHolder();
    if (holder?.id === this.id && this.held) return 'held';
    const refusal = await this.acquire();
    if (refusal) throw refusal;
    return 'acquired';
  }

  /**
   * Stops the heartbeat and removes the lock file if this instance holds it (plugin unload);
   * from then on every {@link ensure} refuses, so a write still in flight cannot take the lock
   * again. Every call after the first returns the first call's promise, so a host that exits
   * after the unload (`npm start`) can await the removal the unload started; a process that
   * exits before it finishes leaves a lock the next instance takes over at once (its pid is
   * gone). Never throws.
   */
  release(): Promise<void> {
    this.releasing ??= this.removeLock();
    return this.releasing;
  }

  /** The body of {@link release}, run once. */
  private async removeLock(): Promise<void> {
    this.closed = true;
    this.stopHeartbeat();
    if (!this.held) return;
    this.held = false;
    try {
      if ((await this.readHolder())?.id === this.id) await this.adapter.remove(this.path);
    } catch (err) {
      console.error('Vault MCP: could not remove the writer lock', err);
    }
  }

  /** True when `holder` may be taken over: no heartbeat for STALE_MS, or its process on this host is gone. */
  private isStale(holder: LockHolder): boolean {
    const beat = Date.parse(holder.heartbeat_at);
    if (!Number.isFinite(beat) || this.now().getTime() - beat > STALE_MS) return true;
    return holder.host === this.host && holder.pid !== this.pid && !this.isAlive(holder.pid);
  }

  /**
   * The lock file's holder, or null when there is none; a file that does not parse counts as none
   * (a crash mid-write) once it read so {@link TORN_READS} times in a row: Obsidian's adapter writes
   * a file in place (truncate, then write), so a read can meet a holder's heartbeat half-written,
   * which must not pass for a free lock.
   */
  private async readHolder(): Promise<LockHolder | null> {
    for (let read = 1; ; read++) {
      if (!(await this.adapter.exists(this.path))) return null;
      const holder = await this.parsedHolder();
      if (holder !== undefined || read >= TORN_READS) return holder ?? null;
    }
  }

  /** The lock file's holder as read now; null for a record without its fields, undefined for text that does not parse or a read that failed. */
  private async parsedHolder(): Promise<LockHolder | null | undefined> {
    let parsed: Partial<LockHolder>;
    try {
      parsed = JSON.parse(await this.adapter.read(this.path)) as Partial<LockHolder>;
    } catch {
      return undefined;
    }
    if (
      typeof parsed.id !== 'string' ||
      typeof parsed.pid !== 'number' ||
      typeof parsed.host !== 'string' ||
      typeof parsed.heartbeat_at !== 'string'
    )
      return null;
    return { started_at: '', ...parsed } as LockHolder;
  }

  private record(): LockHolder {
    const now = this.now().toISOString();
    this.startedAt ??= now;
    return { id: this.id, pid: this.pid, host: this.host, started_at: this.startedAt, heartbeat_at: now };
  }

  private async writeRecord(): Promise<void> {
    if (!(await this.adapter.exists(this.folder))) await this.adapter.mkdir(this.folder);
    await this.adapter.write(this.path, JSON.stringify(this.record()));
  }

  /** One heartbeat: refreshes the record while it is still ours; notices a takeover. */
  private async beat(): Promise<void> {
    try {
      if ((await this.readHolder())?.id !== this.id) {
        this.held = false;
        this.stopHeartbeat();
        return;
      }
      await this.writeRecord();
    } catch (err) {
      console.error('Vault MCP: the writer lock heartbeat failed', err);
    }
  }

  private startHeartbeat(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.beat(), HEARTBEAT_MS);
    // A heartbeat never keeps a headless run alive.
    (this.timer as { unref?: () => void }).unref?.();
  }

  private stopHeartbeat(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

/** The refusal of a lock released for good (the plugin is unloading). */
function stoppingError(): ToolError {
  return new ToolError('unavailable', 'Vault MCP is stopping; nothing was changed. Retry once it runs again.');
}

/** `process.kill(pid, 0)`: true when the process exists (EPERM: it exists, owned by another user). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
