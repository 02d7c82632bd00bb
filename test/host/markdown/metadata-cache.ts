import type * as O from 'obsidian';
import { Events } from '../events';
import { TAbstractFile, TFile } from '../vault/abstract-file';
import type { Vault } from '../vault/vault';
import { parseNoteMetadata } from './markdown-metadata';
import { LinkResolver } from './link-resolver';
import { getLinkpath } from './link-text';

/**
 * One note's entry as Obsidian keeps its metadata cache across restarts (in the app's
 * IndexedDB): the parsed metadata and the file's stat when it was parsed (mtime ms, size bytes).
 */
export interface SavedMetadataEntry {
  mtime: number;
  size: number;
  cache: O.CachedMetadata;
}

/** A host metadata cache's entries by vault path, as saved for the next start ({@link MetadataCache.savedForRestart}). */
export type SavedMetadata = ReadonlyMap<string, SavedMetadataEntry>;

/**
 * Obsidian's `MetadataCache` (obsidian.d.ts) for the host vault. Markdown notes are parsed
 * with a real Markdown parser (see markdown-metadata.ts). Like Obsidian, it follows vault
 * events and indexes asynchronously: after a write, `getFileCache` may still return the old
 * cache until `changed` fires; `await metadataCache.whenResolved()` waits for the queue to
 * drain. Events: `changed` (file, data, cache), `deleted` (file, prevCache), `resolve` (file)
 * and `resolved` (after the queue drains). Only `.md` files have a cache.
 *
 * Host: `holdIndexing()` / `releaseIndexing()` model Obsidian's indexer lagging behind (busy
 * with a vault opened for the first time or whose cache was rebuilt, or with many notes synced
 * in at once): while held, changes queue but no note is parsed, so `getFileCache` answers null
 * for a note created or synced in meanwhile (and the old cache for a changed one) and no
 * `changed`/`resolved` fires; release parses the queue as usual. Held before `initialize()`
 * (createHostApp `holdIndexing`), every note waits unparsed, as in a first-time vault whose
 * plugins start before the indexer reaches its notes.
 *
 * Host: like Obsidian, which keeps the cache across restarts and on start checks each note's
 * stat against its saved entry, {@link initialize} can start from a previous run's entries
 * ({@link savedForRestart}): a note whose stat matches keeps its entry unparsed; a note changed
 * since (by another program while the app was closed) keeps its old entry until the indexer
 * re-parses it in the background (`changed` then fires), so while indexing is held it answers
 * with the old metadata.
 */
export class MetadataCache extends Events implements O.MetadataCache {
  resolvedLinks: Record<string, Record<string, number>> = {};
  unresolvedLinks: Record<string, Record<string, number>> = {};
  private readonly caches = new Map<string, O.CachedMetadata>();
  /** Each cached note's stat when it was parsed (or when its saved entry was parsed). */
  private readonly parsedStats = new Map<string, { mtime: number; size: number }>();
  private readonly resolver = new LinkResolver(() => this.vault.getFiles());
  private readonly queue = new Set<TFile>();
  private draining: Promise<void> | null = null;
  private needsFullResolve = false;
  private held = false;
  private readonly refs: O.EventRef[] = [];

  /** Creates a cache that follows `vault`'s events; call `initialize()` once the vault is loaded. */
  constructor(private readonly vault: Vault) {
    super();
    this.refs.push(
      vault.on('create', (f: TAbstractFile) => this.onCreate(f)),
      vault.on('modify', (f: TAbstractFile) => this.enqueue(f)),
      vault.on('delete', (f: TAbstractFile) => this.onDelete(f)),
      vault.on('rename', (f: TAbstractFile, old: string) => this.onRename(f, old)),
    );
  }

  /**
   * Host: parses every note and resolves all links, then fires `resolved`. While indexing is held
   * ({@link holdIndexing}) it only queues every note: none has a cache until {@link releaseIndexing}.
   * With `saved` entries (a previous run's {@link savedForRestart}), a note whose stat matches its
   * entry takes it as it is; a note whose stat differs takes its old entry and is queued for the
   * indexer (parsed in the background, or at release when held), as Obsidian does on start.
   */
  async initialize(saved?: SavedMetadata): Promise<void> {
    this.resolver.invalidate();
    const stale: TFile[] = [];
    const unparsed: TFile[] = [];
    for (const file of this.vault.getMarkdownFiles()) {
      const entry = saved?.get(file.path);
      if (entry === undefined) {
        unparsed.push(file);
        continue;
      }
      this.caches.set(file.path, entry.cache);
      this.parsedStats.set(file.path, { mtime: entry.mtime, size: entry.size });
      if (entry.mtime !== file.stat.mtime || entry.size !== file.stat.size) stale.push(file);
    }
    if (this.held) {
      for (const file of [...unparsed, ...stale]) this.queue.add(file);
      this.needsFullResolve = true;
      return;
    }
    for (const file of unparsed) {
      try {
        const { mtime, size } = file.stat;
        this.caches.set(file.path, parseNoteMetadata(await this.vault.cachedRead(file)));
        this.parsedStats.set(file.path, { mtime, size });
      } catch (err) {
        console.error(`[host] cannot index "${file.path}":`, err);
      }
    }
    this.resolveAll();
    this.trigger('resolved');
    for (const file of stale) this.enqueue(file);
  }

  /**
   * Host: the cache's entries as Obsidian saves them for the next start (each note's metadata
   * and its stat when parsed), for createHostApp's `savedMetadata` in a later run over the same folder.
   */
  savedForRestart(): SavedMetadata {
    const saved = new Map<string, SavedMetadataEntry>();
    for (const [path, cache] of this.caches) {
      const stat = this.parsedStats.get(path);
      if (stat) saved.set(path, { ...stat, cache: structuredClone(cache) });
    }
    return saved;
  }

  /** Host: stops following vault events. */
  detach(): void {
    for (const ref of this.refs.splice(0)) this.vault.offref(ref);
  }

  /**
   * Resolves when every pending change has been indexed and resolved. While indexing is held
   * ({@link holdIndexing}) the queued notes do not count: it resolves once nothing is draining.
   */
  async whenResolved(): Promise<void> {
    while (this.draining) await this.draining;
  }

  /**
   * Host: holds the indexer, as Obsidian's lags behind while it is busy (a vault opened for the
   * first time, a rebuilt cache, a large sync): vault changes still queue (a deleted or renamed
   * note's cache is dropped or moved at once, as before), but no note is parsed and no
   * `changed`, `resolve` or `resolved` fires until {@link releaseIndexing}. A note created
   * meanwhile has no cache (`getFileCache` null); a modified one keeps its old cache. A drain
   * under way stops after the note it is parsing.
   */
  holdIndexing(): void {
    this.held = true;
  }

  /** Host: lets the indexer parse what queued while held ({@link holdIndexing}). @returns a promise that resolves when it has drained. */
  async releaseIndexing(): Promise<void> {
    this.held = false;
    if (this.queue.size || this.needsFullResolve) this.kick();
    await this.whenResolved();
  }

  getFileCache(file: O.TFile): O.CachedMetadata | null {
    return this.caches.get(file.path) ?? null;
  }

  getCache(path: string): O.CachedMetadata | null {
    return this.caches.get(path) ?? null;
  }

  getFirstLinkpathDest(linkpath: string, sourcePath: string): TFile | null {
    return this.resolver.resolve(linkpath, sourcePath);
  }

  /**
   * Linktext for `file` (Obsidian's "shortest path when possible"): the file name when it is
   * unique in the vault, else the full path; `.md` is dropped unless `omitMdExtension` is
   * false. The source path does not change the answer in the host.
   */
  fileToLinktext(file: O.TFile, _sourcePath: string, omitMdExtension = true): string {
    const text = this.resolver.isUniqueName(file.name) ? file.name : file.path;
    return omitMdExtension && file.extension === 'md' ? text.slice(0, -3) : text;
  }

  private onCreate(file: TAbstractFile): void {
    if (!(file instanceof TFile)) return;
    this.needsFullResolve = true;
    this.resolver.invalidate();
    this.enqueue(file);
    if (file.extension !== 'md') this.kick();
  }

  private onDelete(file: TAbstractFile): void {
    if (!(file instanceof TFile)) return;
    this.queue.delete(file);
    const prev = this.caches.get(file.path) ?? null;
    this.caches.delete(file.path);
    this.parsedStats.delete(file.path);
    delete this.resolvedLinks[file.path];
    delete this.unresolvedLinks[file.path];
    this.resolver.invalidate();
    this.needsFullResolve = true;
    this.trigger('deleted', file, prev);
    this.kick();
  }

  private onRename(file: TAbstractFile, oldPath: string): void {
    if (!(file instanceof TFile)) return;
    const cache = this.caches.get(oldPath);
    const stat = this.parsedStats.get(oldPath);
    this.caches.delete(oldPath);
    this.parsedStats.delete(oldPath);
    if (cache && file.extension === 'md') this.caches.set(file.path, cache);
    if (stat && cache && file.extension === 'md') this.parsedStats.set(file.path, stat);
    else if (file.extension === 'md') this.queue.add(file);
    for (const table of [this.resolvedLinks, this.unresolvedLinks]) {
      if (table[oldPath]) table[file.path] = table[oldPath];
      delete table[oldPath];
    }
    this.resolver.invalidate();
    this.needsFullResolve = true;
    this.kick();
  }

  private enqueue(file: TAbstractFile): void {
    if (!(file instanceof TFile) || file.extension !== 'md') return;
    this.queue.add(file);
    this.kick();
  }

  /** Starts draining the queue on the next macrotask, like Obsidian's deferred indexer. */
  private kick(): void {
    if (this.held) return;
    this.draining ??= new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => this.drain());
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.size && !this.held) {
        const [file] = this.queue;
        this.queue.delete(file);
        if (!this.vault.holds(file)) continue;
        let data: string;
        const { mtime, size } = file.stat;
        try {
          data = await this.vault.cachedRead(file);
        } catch {
          continue;
        }
        if (!this.vault.holds(file)) continue;
        const cache = parseNoteMetadata(data);
        this.caches.set(file.path, cache);
        this.parsedStats.set(file.path, { mtime, size });
        this.trigger('changed', file, data, cache);
        if (!this.needsFullResolve) {
          this.resolveFile(file.path);
          this.trigger('resolve', file);
        }
      }
      if (this.held) return;
      if (this.needsFullResolve) {
        this.needsFullResolve = false;
        this.resolveAll();
        for (const f of this.vault.getMarkdownFiles()) this.trigger('resolve', f);
      }
      this.trigger('resolved');
    } finally {
      this.draining = null;
      if (this.queue.size || this.needsFullResolve) this.kick();
    }
  }

  private resolveAll(): void {
    this.resolvedLinks = {};
    this.unresolvedLinks = {};
    for (const path of this.caches.keys()) this.resolveFile(path);
  }

  /** Recounts `resolvedLinks[path]` and `unresolvedLinks[path]` from the note's links and embeds. */
  private resolveFile(path: string): void {
    const cache = this.caches.get(path);
    const resolved: Record<string, number> = {};
    const unresolved: Record<string, number> = {};
    const refs = [...(cache?.links ?? []), ...(cache?.embeds ?? []), ...(cache?.frontmatterLinks ?? [])];
    for (const ref of refs) {
      const linkpath = getLinkpath(ref.link);
      if (linkpath === '') continue;
      const dest = this.resolver.resolve(linkpath, path);
      if (dest) resolved[dest.path] = (resolved[dest.path] ?? 0) + 1;
      else unresolved[linkpath] = (unresolved[linkpath] ?? 0) + 1;
    }
    this.resolvedLinks[path] = resolved;
    this.unresolvedLinks[path] = unresolved;
  }
}
