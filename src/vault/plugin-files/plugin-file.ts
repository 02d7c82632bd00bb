import type { DataAdapter } from 'obsidian';

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
   */
  constructor(
    private readonly adapter: DataAdapter,
    readonly folder: string,
    readonly name: string,
  ) {}

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
    return `${this.path}.tmp`;
  }

  /** Vault-relative path the temp copy is written to; renamed to {@link tempPath} only once it is whole. */
  private get partialPath(): string {
    return `${this.path}.partial`;
  }

  /**
   * Reads the file, first finishing or undoing a {@link write} a crash interrupted (unless
   * this process is writing it now): a `.partial` copy is a write that never finished and is
   * removed (so a crash during the very first write leaves no file, not half of one); a whole
   * `.tmp` copy next to the file is a write that never swapped in and is removed; a `.tmp` copy
   * with no file was written whole (the old file is removed only after that) and is swapped in.
   * @returns the file's text, or null when it does not exist. Rethrows other read errors.
   */
  async read(): Promise<string | null> {
    if (!(await this.recover())) return null;
    return this.adapter.read(this.path);
  }

  /** {@link read} for a binary file (`DataAdapter.readBinary`): its bytes, or null when it does not exist. */
  async readBinary(): Promise<ArrayBuffer | null> {
    if (!(await this.recover())) return null;
    return this.adapter.readBinary(this.path);
  }

  /** Finishes or undoes an interrupted write (see {@link read}); true when the file exists afterwards. */
  private async recover(): Promise<boolean> {
    if (!this.writing.has(this.path) && (await this.adapter.exists(this.partialPath))) await this.adapter.remove(this.partialPath);
    if (!this.writing.has(this.path) && (await this.adapter.exists(this.tempPath))) {
      if (await this.adapter.exists(this.path)) await this.adapter.remove(this.tempPath);
      else await this.adapter.rename(this.tempPath, this.path);
    }
    return this.adapter.exists(this.path);
  }

  /**
   * Replaces the file's text: written to `<name>.tmp` first, then swapped in, so a crash
   * mid-write leaves the previous file or the whole new one (recovered by the next {@link read}).
   */
  async write(text: string): Promise<void> {
    await this.swapIn((path) => this.adapter.write(path, text));
  }

  /** {@link write} for bytes (`DataAdapter.writeBinary`), with the same temp-copy swap. */
  async writeBinary(data: ArrayBuffer): Promise<void> {
    await this.swapIn((path) => this.adapter.writeBinary(path, data));
  }

  /**
   * Writes the temp copy with `writeTemp` (to the `.partial` path it is given), renames it to
   * `.tmp` once whole, then swaps it in place of the file.
   */
  private async swapIn(writeTemp: (path: string) => Promise<void>): Promise<void> {
    this.writing.add(this.path);
    try {
      if (!(await this.adapter.exists(this.folder))) await this.adapter.mkdir(this.folder);
      if (await this.adapter.exists(this.partialPath)) await this.adapter.remove(this.partialPath);
      await writeTemp(this.partialPath);
      if (await this.adapter.exists(this.tempPath)) await this.adapter.remove(this.tempPath);
      await this.adapter.rename(this.partialPath, this.tempPath);
      if (await this.adapter.exists(this.path)) await this.adapter.remove(this.path);
      await this.adapter.rename(this.tempPath, this.path);
    } finally {
      this.writing.delete(this.path);
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
