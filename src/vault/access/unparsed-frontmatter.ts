import { readFileSync } from 'node:fs';
import { FileSystemAdapter, TFile, getFrontMatterInfo, type App, type CachedMetadata, type EventRef } from 'obsidian';
import { unparsedBlockAccess, type NoteAccess } from './access-rules';

/**
 * True when the metadata cache shows a frontmatter block (its position, or a leading `yaml`
 * section) without a parsed mapping for it: Obsidian leaves `frontmatter` undefined when the
 * YAML does not parse, and a block that parses to a list or a text names no properties either.
 * Access rules must then be read from the block's raw text ({@link UnparsedFrontmatter}), as
 * the write guard reads such a block (frontmatter-guard parseFrontmatter: `invalid`).
 * @param cache the note's metadata cache entry, or null/undefined when it has none.
 */
export function hasUnparsedFrontmatter(cache: CachedMetadata | null | undefined): boolean {
  if (!cache || (cache.frontmatterPosition === undefined && cache.sections?.[0]?.type !== 'yaml')) return false;
  const data: unknown = cache.frontmatter;
  return data === null || typeof data !== 'object' || Array.isArray(data);
}

/**
 * The raw frontmatter blocks of notes whose YAML does not parse. Obsidian's metadata cache
 * then keeps `frontmatterPosition` but no `frontmatter`, so a broken line next to
 * `access: private` would hide the rule and open the note (issue: access fails open). This
 * keeps each such block, learned from the text the metadata cache 'changed' event carries,
 * so access checks stay synchronous. A block not known for the note's current mtime/size (the
 * metadata cache of a started app loads from its own store without 'changed' events) is read
 * from disk at once, synchronously (desktop FileSystemAdapter), so the rule holds from the
 * first check after startup. Only where that read is impossible does the note count as private
 * until an asynchronous read learns it (fail closed); listeners then hear that its access may
 * have changed.
 */
export class UnparsedFrontmatter {
  private readonly blocks = new Map<string, { mtime: number; size: number; block: string }>();
  private readonly reading = new Set<string>();
  private readonly listeners = new Set<(path: string) => void>();
  private readonly refs: Array<{ source: { offref(ref: EventRef): void }; ref: EventRef }> = [];

  /** Starts following the metadata cache ('changed') and the vault ('rename', 'delete'). */
  constructor(private readonly app: App) {
    const { vault, metadataCache } = app;
    this.refs.push({ source: metadataCache, ref: metadataCache.on('changed', (file, data, cache) => this.remember(file, data, cache)) });
    this.refs.push({ source: vault, ref: vault.on('delete', (file) => void this.blocks.delete(file.path)) });
    this.refs.push({
      source: vault,
      ref: vault.on('rename', (file, oldPath) => {
        const known = this.blocks.get(oldPath);
        this.blocks.delete(oldPath);
        if (known) this.blocks.set(file.path, known);
      }),
    });
  }

  /**
   * The access level `label` has on `file` per its unparseable frontmatter block. Call only
   * for a note whose metadata cache shows a frontmatter block without parsed frontmatter
   * ({@link hasUnparsedFrontmatter}).
   * @returns the strictest level the block names (`read-write` when it names no access key),
   *   read from disk at once when not known for the file's current mtime and size; `private`
   *   only when that read fails (an asynchronous read is started, and {@link onLearned}
   *   listeners hear when it is done).
   */
  accessOf(file: TFile, label: string): NoteAccess {
    let known = this.blocks.get(file.path);
    if (!known || known.mtime !== file.stat.mtime || known.size !== file.stat.size) known = this.readNow(file) ?? undefined;
    if (known) return unparsedBlockAccess(known.block, label) ?? 'read-write';
    this.learn(file);
    return 'private';
  }

  /**
   * Reads the note's block from disk synchronously and remembers it for the note's current
   * mtime/size. @returns the entry, or null when the vault has no disk paths or the read fails.
   */
  private readNow(file: TFile): { mtime: number; size: number; block: string } | null {
    const adapter = this.app.vault.adapter;
    if (!(adapter instanceof FileSystemAdapter)) return null;
    try {
      const text = readFileSync(adapter.getFullPath(file.path), 'utf8');
      const entry = { mtime: file.stat.mtime, size: file.stat.size, block: getFrontMatterInfo(text).frontmatter };
      this.blocks.set(file.path, entry);
      return entry;
    } catch {
      return null;
    }
  }

  /** Calls `listener(path)` when a block becomes known, so answers computed while it was unknown can be redone. @returns an unsubscriber. */
  onLearned(listener: (path: string) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Stops following events and forgets every block. */
  close(): void {
    for (const { source, ref } of this.refs.splice(0)) source.offref(ref);
    this.blocks.clear();
    this.listeners.clear();
  }

  /** Records (or forgets) the block of a note the metadata cache just parsed from `data`. */
  private remember(file: TFile, data: string, cache: CachedMetadata): void {
    if (hasUnparsedFrontmatter(cache)) {
      this.blocks.set(file.path, { mtime: file.stat.mtime, size: file.stat.size, block: getFrontMatterInfo(data).frontmatter });
    } else {
      this.blocks.delete(file.path);
    }
  }

  /** Reads the note once (`vault.cachedRead`) to learn its block, then tells the listeners. */
  private learn(file: TFile): void {
    if (this.reading.has(file.path)) return;
    this.reading.add(file.path);
    const { mtime, size } = file.stat;
    void this.app.vault
      .cachedRead(file)
      .then((text) => {
        if (file.stat.mtime !== mtime || file.stat.size !== size) return;
        this.blocks.set(file.path, { mtime, size, block: getFrontMatterInfo(text).frontmatter });
        for (const listener of this.listeners) listener(file.path);
      })
      .catch(() => undefined)
      .finally(() => this.reading.delete(file.path));
  }
}
