import type { DataAdapter, Stat } from 'obsidian';

/** Age past which another writer's temp copy of a shared plugin file is a crashed write's, ms. */
const STALE_COPY_MS = 10 * 60 * 1000;

/** Per vault (its adapter), the vault paths of plugin files being written by this process (their temp copy is live): two vaults open in one process have the same plugin-relative paths. */
const writingIn = new WeakMap<DataAdapter, Set<string>>();

/**
 * The tag {@link PluginFile.keepCorruptAside} gives a file that could not be read: `corrupt-<ISO
 * time>` with colons and dots as dashes, so the name is valid on every file system.
 */
export function corruptTag(now: Date = new Date()): string {
  return `corrupt-${now.toISOString().replace(/[:.]/g, '-')}`;
}

/**
 * One file of the plugin's own in its folder (`<configDir>/plugins/vault-mcp/`), read and
 * written through `app.vault.adapter` (obsidian.d.ts `DataAdapter`), as `Plugin.saveData`
 * does for data.json. Kept apart from data.json so settings stay small and syncable.
 */
export class PluginFile {
  /**
   * @param adapter the vault's DataAdapter.
   * @param folder the plugin folder (`manifest.dir`), vault-relative.
   * @param name the file's name inside it, e.g. `proposals.json`.
   * @param writer for a file several plugin instances write (two Obsidian windows, two `npm
   *   start` on one vault: the activity log), this instance's id: its temp copies are then
   *   `<name>.partial-<writer>` and `<name>.tmp-<writer>`, so one instance's write never removes
   *   or renames the other's temp copy in the middle of its write ({@link write}).
   */
  constructor(
    private readonly adapter: DataAdapter,
    readonly folder: string,
    readonly name: string,
    private readonly writer?: string,
  ) {}

  /** Whether {@link sweepCrashedCopies} ran (once per PluginFile). */
  private swept = false;

  /** Paths of this vault's plugin files being written by this process. */
  private get writing(): Set<string> {
    let paths = writingIn.get(this.adapter);
    if (paths === undefined) writingIn.set(this.adapter, (paths = new Set()));
    return paths;
  }

  /** Vault-relative path of the file. */
  get path(): string {
    return `${this.folder}/${this.name}`;
  }

  /** Vault-relative path of the whole temp copy {@link write} swaps in. */
  private get tempPath(): string {
    return `${this.path}.tmp${this.writer === undefined ? '' : `-${this.writer}`}`;
  }

  /** Vault-relative path the temp copy is written to; renamed to {@link tempPath} only once it is whole. */
  private get partialPath(): string {
    return `${this.path}.partial${this.writer === undefined ? '' : `-${this.writer}`}`;
  }

  /**
   * Reads the file, first finishing or undoing a {@link write} a crash interrupted (unless
   * this process is writing it now): a `.partial` copy is a write that never finished and is
   * removed (so a crash during the very first write leaves no file, not half of one); a whole
   * `.tmp` copy next to the file is a write that never swapped in and is removed; a `.tmp` copy
   * with no file was written whole (the old file is removed only after that) and is swapped in.
   * A file several instances write (`writer` given) that is gone between finding it and reading
   * it (another instance swapping its copy in) is looked for again, up to three times. Only the
   * file's writer reads it so (for a file with shared temp names, the instance holding the writer
   * lock): an instance that reads a file another instance writes uses {@link readAsIs}, since that
   * writer's temp copies are live.
   * @returns the file's text, or null when it does not exist. Rethrows other read errors.
   */
  read(): Promise<string | null> {
    return this.readRecovered((path) => this.adapter.read(path));
  }

  /** {@link read} with `readPath` reading the file (text or bytes). */
  private async readRecovered<T>(readPath: (path: string) => Promise<T>): Promise<T | null> {
    for (let attempt = 0; ; attempt++) {
      if (!(await this.recover())) return null;
      try {
        return await readPath(this.path);
      } catch (err) {
        // A file several instances write is gone for a moment while another one swaps its copy in: look again.
        if (this.writer === undefined || attempt >= 3 || (await this.adapter.exists(this.path))) throw err;
      }
    }
  }

  /**
   * Reads the file as it is, touching no temp copy: for an instance that only reads a file another
   * instance writes (proposals.json while the other holds the writer lock, writer-lock.ts). Its
   * `.partial` and `.tmp` copies are that writer's write in progress, not a crash's leftovers, so
   * {@link read}'s recovery (removing or renaming them) would break that write and could delete the
   * file; only the writer recovers them. While the file is missing for a moment (the writer between
   * removing it and renaming its whole `.tmp` copy in its place), that `.tmp` copy is read instead:
   * it is renamed to `.tmp` only once whole, and it is what the file is about to hold. A file or copy
   * gone between finding it and reading it is looked for again, up to three times.
   * @returns the file's text (or its whole `.tmp` copy's), or null when neither exists. Rethrows other read errors.
   */
  async readAsIs(): Promise<string | null> {
    for (let attempt = 0; ; attempt++) {
      const path = (await this.adapter.exists(this.path)) ? this.path : (await this.adapter.exists(this.tempPath)) ? this.tempPath : null;
      if (path === null) return null;
      try {
        return await this.adapter.read(path);
      } catch (err) {
        if (attempt >= 3 || (await this.adapter.exists(path))) throw err;
      }
    }
  }

  /**
   * The file's version as `DataAdapter.stat` gives it, `"<mtime ms> <ctime ms> <size bytes>"`, or `''` when it does not
   * exist: one call, so a reader that kept the last one can tell cheaply whether another instance wrote the file since.
   */
  async stamp(): Promise<string> {
    const stat: Stat | null = await this.adapter.stat(this.path);
    return stat ? `${stat.mtime} ${stat.ctime} ${stat.size}` : '';
  }

  /** {@link read} for a binary file (`DataAdapter.readBinary`): its bytes, or null when it does not exist. */
  readBinary(): Promise<ArrayBuffer | null> {
    return this.readRecovered((path) => this.adapter.readBinary(path));
  }

  /** Finishes or undoes an interrupted write (see {@link read}); true when the file exists afterwards. */
  private async recover(): Promise<boolean> {
    if (this.writer !== undefined) return this.recoverShared();
    if (!this.writing.has(this.path) && (await this.adapter.exists(this.partialPath))) await this.adapter.remove(this.partialPath);
    if (!this.writing.has(this.path) && (await this.adapter.exists(this.tempPath))) {
      if (await this.adapter.exists(this.path)) await this.adapter.remove(this.tempPath);
      else await this.adapter.rename(this.tempPath, this.path);
    }
    return this.adapter.exists(this.path);
  }

  /**
   * {@link recover} for a file several instances write, whose temp copies carry each writer's
   * id: another instance's copies may be mid-write, so they are left alone while the file
   * exists. When it does not (a write crashed between removing it and swapping its copy in, or
   * another instance is at that very step), a whole `.tmp-<id>` copy is swapped in, as that
   * write was about to do (its own swap then finds its copy gone and the file there, see
   * {@link swapIn}).
   */
  private async recoverShared(): Promise<boolean> {
    if (!this.swept) await this.sweepCrashedCopies();
    if (await this.adapter.exists(this.path)) return true;
    const listed = await this.adapter.list(this.folder).catch(() => ({ files: [] as string[], folders: [] as string[] }));
    const temp = listed.files.filter((f) => f.startsWith(`${this.path}.tmp-`)).pop();
    if (temp !== undefined) await this.adapter.rename(temp, this.path).catch(() => undefined);
    return this.adapter.exists(this.path);
  }

  /**
   * Once, at the first read of a file several instances write: removes the temp copies other
   * writers left more than {@link STALE_COPY_MS} ago (a write takes well under a second, so such
   * a copy is a crashed write's), keeping a whole `.tmp-<id>` while the file itself is missing
   * (recoverShared swaps it in).
   */
  private async sweepCrashedCopies(): Promise<void> {
    this.swept = true;
    try {
      const { files } = await this.adapter.list(this.folder);
      const fileExists = await this.adapter.exists(this.path);
      const old = Date.now() - STALE_COPY_MS;
      for (const f of files) {
        const partial = f.startsWith(`${this.path}.partial-`);
        if (!partial && !(fileExists && f.startsWith(`${this.path}.tmp-`))) continue;
        if (f === this.partialPath || f === this.tempPath) continue;
        const stat = await this.adapter.stat(f);
        if (stat !== null && stat.mtime < old) await this.adapter.remove(f);
      }
    } catch {
      // A folder that cannot be listed now: the copies stay until a later run.
    }
  }

  /**
   * Replaces the file's text: written to `<name>.tmp` first, then swapped in, so a crash
   * mid-write leaves the previous file or the whole new one (recovered by the next {@link read}).
   */
  async write(text: string): Promise<void> {
    await this.swapIn((path) => this.adapter.write(path, text));
  }

  /**
   * {@link write} for a file several instances write, unless another instance changed it since
   * this one read `seen`: the file is read again as the last step before the new text is swapped
   * in (after the copy is written whole), and when it no longer holds `seen` the copy is
   * dropped and nothing is written. A check and a swap are two steps, not one (the adapter has
   * no compare-and-swap), so another instance's write can still land between them; it narrows
   * the gap to those two steps.
   * @param seen the file's text when read, or null when it did not exist.
   * @returns true when written; false when the file had changed (read, merge and try again).
   */
  async writeIfUnchanged(text: string, seen: string | null): Promise<boolean> {
    return this.swapIn(
      (path) => this.adapter.write(path, text),
      async () => ((await this.adapter.exists(this.path)) ? await this.adapter.read(this.path) : null) === seen,
    );
  }

  /** {@link write} for bytes (`DataAdapter.writeBinary`), with the same temp-copy swap. */
  async writeBinary(data: ArrayBuffer): Promise<void> {
    await this.swapIn((path) => this.adapter.writeBinary(path, data));
  }

  /**
   * Writes the temp copy with `writeTemp` (to the `.partial` path it is given), renames it to
   * `.tmp` once whole, then swaps it in place of the file, unless `stillAsSeen` (given) answers
   * false right before the swap: then the copy is removed. @returns whether it was swapped in.
   */
  private async swapIn(writeTemp: (path: string) => Promise<void>, stillAsSeen?: () => Promise<boolean>): Promise<boolean> {
    this.writing.add(this.path);
    try {
      if (!(await this.adapter.exists(this.folder))) await this.adapter.mkdir(this.folder);
      if (await this.adapter.exists(this.partialPath)) await this.adapter.remove(this.partialPath);
      await writeTemp(this.partialPath);
      if (await this.adapter.exists(this.tempPath)) await this.adapter.remove(this.tempPath);
      await this.adapter.rename(this.partialPath, this.tempPath);
      if (stillAsSeen !== undefined && !(await stillAsSeen().catch(() => false))) {
        await this.adapter.remove(this.tempPath).catch(() => undefined);
        return false;
      }
      if (this.writer !== undefined) {
        await this.swapShared();
        return true;
      }
      if (await this.adapter.exists(this.path)) await this.adapter.remove(this.path);
      await this.adapter.rename(this.tempPath, this.path);
      return true;
    } finally {
      this.writing.delete(this.path);
    }
  }

  /**
   * The last step of {@link swapIn} for a file several instances write: removes the file and
   * renames this writer's whole copy in its place, when another instance's write removed or
   * replaced the file at the same moment: a file already gone is fine; a copy already gone
   * was swapped in by another instance's read (recoverShared); a file back in place before the
   * rename is removed again (at most a few times, then the other's write stands).
   */
  private async swapShared(): Promise<void> {
    for (let attempt = 0; attempt < 4; attempt++) {
      await this.adapter.remove(this.path).catch(() => undefined);
      try {
        await this.adapter.rename(this.tempPath, this.path);
        return;
      } catch (err) {
        if (!(await this.adapter.exists(this.tempPath))) return;
        if (attempt === 3) throw err;
      }
    }
  }

  /**
   * Moves the file aside as `<name>.<tag>` (e.g. `proposals.json.corrupt-2026-11-30T18-00-00Z`)
   * so a file that could not be read is kept for the user, never silently dropped.
   * @returns the vault-relative path it was moved to.
   */
  async keepAside(tag: string): Promise<string> {
    const aside = `${this.path}.${tag}`;
    await this.adapter.rename(this.path, aside);
    return aside;
  }

  /**
   * {@link keepAside} with the tag {@link corruptTag} of now, for a file that could not be read.
   * @returns the vault-relative path it was moved to.
   */
  keepCorruptAside(now: Date = new Date()): Promise<string> {
    return this.keepAside(corruptTag(now));
  }
}
