import { readFileSync, statSync } from 'node:fs';
import { FileSystemAdapter, TFile, type App, type CachedMetadata, type EventRef } from 'obsidian';
import { parseYamlOnce } from '../content/frontmatter/parsed-yaml';
import { noteAccess, unparsedBlockAccess, unparsedRules, type NoteAccess } from './access-rules';
import { namesAccessRules, namesLabelRules } from './rule-keys';
import { frontMatterInfo } from '../content/text/line-endings';
import { rulesTextOf } from './utf16-rules';

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
 * True when the metadata cache describes the whole note as one paragraph on one line (one
 * section, starting the note, ending on line 0, at least 7 chars; no headings, no frontmatter):
 * what a parser that does not count a lone `\r` as a line break makes
 * of a note whose lines end in `\r` alone (old Mac files), frontmatter and `access` rule
 * included. This plugin reads `\r` as a line break (line-endings.ts), as CommonMark and
 * Obsidian's editor do; should the app's metadata cache not, such a note's rules must still
 * hold, so its access is read from its file ({@link UnparsedFrontmatter.uncachedAccessOf}),
 * which costs one read of a one-line note per change. Never throws.
 * @param cache the note's metadata cache entry, or null/undefined when it has none.
 */
export function mayHideFrontmatter(cache: CachedMetadata | null | undefined): boolean {
  const sections = cache?.sections;
  if (!sections || sections.length !== 1 || cache?.frontmatterPosition !== undefined || cache?.headings !== undefined) return false;
  const { type, position } = sections[0];
  // `---\r` + `---` at least: 7 chars on the one line.
  return type === 'paragraph' && position.start.offset <= 1 && position.end.line === 0 && position.end.col >= 7;
}

/**
 * One note's raw frontmatter block, for the file's mtime and size (ms, bytes) when it was read.
 * `data` is the block parsed with the app's `parseYaml` (for a note the metadata cache has not
 * parsed yet): the mapping, null when the block does not parse to one, undefined until asked.
 */
interface RawBlock {
  mtime: number;
  size: number;
  block: string;
  data?: Record<string, unknown> | null;
  /** The disk's own stat (ms, bytes) when the block was read from a file the vault's stat did not describe ({@link UnparsedFrontmatter.catchUp}). */
  disk?: DiskStamp;
}

/** A file's stat on disk, links followed: modification time (ms, fractional as the OS gives it) and size (bytes). */
export interface DiskStamp {
  mtime: number;
  size: number;
}

/**
 * The raw frontmatter blocks of notes whose access the metadata cache cannot tell, so access
 * checks stay synchronous and fail closed:
 * - notes whose YAML does not parse: Obsidian's metadata cache then keeps `frontmatterPosition`
 *   but no `frontmatter`, so a broken line next to `access: private` would hide the rule and
 *   open the note (issue: access fails open). Each such block is learned from the text the
 *   metadata cache 'changed' event carries, and read at its strictest ({@link accessOf});
 * - notes the metadata cache has no entry for yet (`getFileCache` null): Obsidian parses notes
 *   asynchronously, so a note just created or synced in by another program, and most notes of
 *   a vault opened for the first time (or after the cache was rebuilt), have none for a while
 *   (seconds to minutes at 10k–100k notes) while the server already answers. Without this such
 *   a note would have no rules, read-write for every key ({@link uncachedAccessOf}). Likewise a
 *   note changed since the metadata cache parsed it ({@link isBehind}): its entry may lack a
 *   rule the change added.
 *
 * A block not known for the note's current mtime/size (the metadata cache of a started app
 * loads from its own store without 'changed' events; an unparsed note has no text to learn
 * from) is read from disk at once, synchronously (desktop FileSystemAdapter), so the rule holds
 * from the first check. Only where that read is impossible does the note count as private: a
 * note with an unparseable block until an asynchronous read learns it (listeners then hear
 * that its access may have changed), a note not parsed yet until the metadata cache parses it
 * (its 'changed' event, which NoteChanges and ScanCache already follow). Blocks are dropped
 * when the metadata cache parses the note to a mapping ('changed'), moved with a rename and
 * dropped with a delete.
 */
export class UnparsedFrontmatter {
  private readonly blocks = new Map<string, RawBlock>();
  private readonly reading = new Set<string>();
  /** Paths of notes changed since the metadata cache last parsed them ({@link isBehind}). */
  private readonly modified = new Set<string>();
  private readonly listeners = new Set<(path: string) => void>();
  private readonly refs: Array<{ source: { offref(ref: EventRef): void }; ref: EventRef }> = [];

  /**
   * Starts following the metadata cache ('changed') and the vault ('modify', 'rename', 'delete').
   * @param othersOf the other notes the vault lists that are the same file on disk (FileNames.othersOf:
   *   file links and hard links), those known now returned and those found later passed to `late`;
   *   none when absent. A change reported for one name is a change of each.
   */
  constructor(
    private readonly app: App,
    private readonly othersOf: (file: TFile, late: (others: TFile[]) => void) => TFile[] = () => [],
  ) {
    const { vault, metadataCache } = app;
    this.refs.push({ source: metadataCache, ref: metadataCache.on('changed', (file, data, cache) => this.remember(file, data, cache)) });
    this.refs.push({
      source: vault,
      ref: vault.on('modify', (file) => {
        if (!(file instanceof TFile) || file.extension !== 'md') return;
        this.changedOnDisk(file);
        // No event comes for the other names of the file (Obsidian reports the path written): their metadata is as old.
        const behind = (others: TFile[]): void => {
          for (const other of others) this.judgeFromDisk(other, diskStamp(app, other));
        };
        behind(this.othersOf(file, behind));
      }),
    });
    this.refs.push({
      source: vault,
      ref: vault.on('delete', (file) => {
        this.blocks.delete(file.path);
        this.modified.delete(file.path);
      }),
    });
    this.refs.push({
      source: vault,
      ref: vault.on('rename', (file, oldPath) => {
        const known = this.blocks.get(oldPath);
        this.blocks.delete(oldPath);
        if (known) this.blocks.set(file.path, known);
        if (this.modified.delete(oldPath)) this.modified.add(file.path);
      }),
    });
  }

  /**
   * True when the metadata cache's entry for `file` may be older than the file: the vault
   * reported a change of it ('modify', from any program) that the metadata cache has not parsed
   * since ('changed'). Its access must then be read from the file, as for a note with no entry
   * ({@link uncachedAccessOf}): the entry may lack a rule just added.
   */
  isBehind(file: TFile): boolean {
    return this.modified.has(file.path);
  }

  /**
   * A change of the note the vault never reported: its stat differs from one saved before (the
   * search index's, from the last run), so another program changed it while Obsidian was closed.
   * Obsidian keeps its metadata cache across restarts and parses such a note again in the
   * background after it starts; until its 'changed' event the entry is the old one. The note is
   * {@link isBehind} from now on, as after a vault 'modify' ({@link changedOnDisk}: its file read
   * now, listeners told when its rules may have changed).
   */
  changedWhileAway(file: TFile): void {
    this.changedOnDisk(file);
  }

  /**
   * A read route found `text`, the text it was about to serve for `file`, naming a stricter rule
   * than the metadata cache's entry (NotePolicy.mayServe): the entry is older than the text (the
   * text was written through another name of the file, or by another program whose event has not
   * come). The note is {@link isBehind} from now on, judged from `text`'s block (kept for the
   * file's stat as the vault has it) until the vault reports a newer stat or the metadata cache
   * parses it; the {@link onLearned} listeners hear at once, so lists and the search index drop it.
   */
  judgeFromText(file: TFile, text: string): void {
    const block = frontMatterInfo(rulesTextOf(text)).frontmatter;
    const known = this.blocks.get(file.path);
    // Judged so already (a listener's own read of the same text, the index's): nothing new to tell.
    if (this.modified.has(file.path) && known?.block === block && known.mtime === file.stat.mtime && known.size === file.stat.size) return;
    this.blocks.set(file.path, { mtime: file.stat.mtime, size: file.stat.size, block });
    this.modified.add(file.path);
    for (const listener of this.listeners) listener(file.path);
  }

  /**
   * Checks that the file on disk is the version the vault's stat of `file` describes (one
   * `stat`, links followed); when it is not, the vault has not caught up with it (another
   * program's write whose event has not come, or a write through another name of the file, which
   * brings none for this path), and the note is judged from the disk's block from now on, as
   * after a 'modify' ({@link isBehind}): read now unless this disk version was read before
   * (its stat kept with the block); a file gone from disk counts as unreadable (private) until
   * the vault's event. For read routes about to serve a text (NotePolicy.mayServe).
   * @param disk the disk's stat of the file, taken now (DiskReads' look at the disk beside a read; a `stat` when not given).
   * @returns true when the disk differs from the vault's stat (the caller judges the note again),
   *   false when it does not or the vault has no disk paths.
   */
  catchUp(file: TFile, disk: DiskStamp | null | undefined = diskStamp(this.app, file)): boolean {
    if (disk === undefined || (disk !== null && Math.abs(disk.mtime - file.stat.mtime) < 1 && disk.size === file.stat.size)) return false;
    const known = this.blocks.get(file.path);
    const seen =
      disk !== null &&
      this.modified.has(file.path) &&
      known?.disk?.mtime === disk.mtime &&
      known.disk.size === disk.size &&
      known.mtime === file.stat.mtime &&
      known.size === file.stat.size;
    if (!seen) this.judgeFromDisk(file, disk);
    return true;
  }

  /**
   * The vault's view of `file` is older than its disk (no event came for this path): it is
   * {@link isBehind}, its block read from disk now and kept for the vault's stat with the disk's
   * own (`disk`: null when it cannot be stat'ed, the block then unknown and the note private), and
   * the {@link onLearned} listeners hear.
   */
  private judgeFromDisk(file: TFile, disk: DiskStamp | null | undefined): void {
    this.blocks.delete(file.path);
    this.modified.add(file.path);
    const read = disk === null ? null : this.readNow(file);
    if (read !== null && disk) read.disk = disk;
    for (const listener of this.listeners) listener(file.path);
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
    const known = this.current(file);
    if (known) return unparsedBlockAccess(known.block, label) ?? 'read-write';
    this.learn(file);
    return 'private';
  }

  /**
   * The access level `label` has on a Markdown note the metadata cache has no entry for yet
   * (`getFileCache` null), or an entry older than the file ({@link isBehind}), from its file's
   * frontmatter block (read from disk at once when not known for the file's current mtime and
   * size): a block that parses to a mapping with the
   * app's `parseYaml` is read exactly as the metadata cache's frontmatter would be
   * ({@link noteAccess}); any other block at its strictest ({@link unparsedBlockAccess}), as
   * {@link accessOf} reads one; no block gives `read-write`.
   * @returns `private` when the file cannot be read now (no disk paths, the read fails): the
   *   metadata cache's 'changed' event, once it parses the note, brings the real answer.
   */
  uncachedAccessOf(file: TFile, label: string): NoteAccess {
    const known = this.current(file);
    if (!known) return 'private';
    const data = parsedData(known);
    return data ? noteAccess(data, label) : (unparsedBlockAccess(known.block, label) ?? 'read-write');
  }

  /**
   * The properties {@link uncachedAccessOf} reads for a note the metadata cache has not parsed
   * (or not since it changed): its file's frontmatter block parsed with the app's `parseYaml`.
   * @returns the mapping; undefined when the block does not parse to one, or the file cannot be read now
   */
  uncachedFrontmatter(file: TFile): Record<string, unknown> | undefined {
    const known = this.current(file);
    return (known && parsedData(known)) ?? undefined;
  }

  /**
   * NotePolicy.openness for a Markdown note the metadata cache has no entry for yet (or one
   * older than the file: {@link isBehind}), from its file's block as {@link uncachedAccessOf} reads it: `closed` when the unrestricted scope (label
   * `unrestricted`) may not read it, or the file cannot be read now; `by-label` when its access
   * may differ by key label (a parsed block naming `agent_overrides` or a merge key:
   * namesLabelRules; a block that does not parse naming any access rule); else `open`.
   * @param unrestricted the unrestricted scope's label (UNRESTRICTED_SCOPE.label).
   */
  uncachedOpenness(file: TFile, unrestricted: string): 'closed' | 'open' | 'by-label' {
    const known = this.current(file);
    if (!known || this.uncachedAccessOf(file, unrestricted) === 'private') return 'closed';
    const data = parsedData(known);
    return (data ? namesLabelRules(data) : unparsedRules(known.block).length > 0) ? 'by-label' : 'open';
  }

  /**
   * A note changed (vault 'modify'): it is {@link isBehind} until the metadata cache parses it,
   * and when its rules may have changed with it (the metadata cache or the block known before
   * names an access rule, or its file now does, or cannot be read) the {@link onLearned}
   * listeners hear so at once: answers computed from the old rules (the search index's decisions)
   * must not wait for the metadata cache, or a note another program just made private would be
   * found by its new text meanwhile. The file is read now ({@link readNow}: about a millisecond
   * per MB) and its block kept for the checks that follow. A change of a note that names no
   * rule before or after (most notes, and every agent write: no route may change a rule) tells
   * no one.
   */
  private changedOnDisk(file: TFile): void {
    const cache = this.app.metadataCache.getFileCache(file);
    const before = this.blocks.get(file.path);
    if (cache !== null) this.modified.add(file.path);
    const had = hasUnparsedFrontmatter(cache) || namesAccessRules(cache?.frontmatter) || (before !== undefined && blockNamesRule(before));
    const now = this.current(file);
    if (had || now === null || blockNamesRule(now)) for (const listener of this.listeners) listener(file.path);
  }

  /**
   * The note's block known for its current mtime and size, else read from disk now
   * ({@link readNow}); null when that read is impossible.
   */
  private current(file: TFile): RawBlock | null {
    const known = this.blocks.get(file.path);
    if (known && known.mtime === file.stat.mtime && known.size === file.stat.size) return known;
    return this.readNow(file);
  }

  /**
   * Reads the note's block from disk synchronously and remembers it for the note's current
   * mtime/size. @returns the entry, or null when the vault has no disk paths or the read fails.
   */
  private readNow(file: TFile): RawBlock | null {
    const adapter = this.app.vault.adapter;
    if (!(adapter instanceof FileSystemAdapter)) return null;
    try {
      const text = readFileSync(adapter.getFullPath(file.path), 'utf8');
      const entry: RawBlock = { mtime: file.stat.mtime, size: file.stat.size, block: frontMatterInfo(rulesTextOf(text)).frontmatter };
      this.blocks.set(file.path, entry);
      return entry;
    } catch {
      return null;
    }
  }

  /**
   * Calls `listener(path)` when a block becomes known, so answers computed while it was unknown
   * can be redone, and when a change of a note may have changed its rules before the metadata
   * cache has parsed it ({@link changedOnDisk}). @returns an unsubscriber.
   */
  onLearned(listener: (path: string) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Stops following events and forgets every block. */
  close(): void {
    for (const { source, ref } of this.refs.splice(0)) source.offref(ref);
    this.blocks.clear();
    this.modified.clear();
    this.listeners.clear();
  }

  /**
   * Records (or forgets) the block of a note the metadata cache just parsed from `data` (a block
   * it parsed to a mapping, or a note without one, is its to answer now); the note is no longer
   * {@link isBehind} unless it was and its file's frontmatter block now differs from the one in
   * `data`: the parse of an older version that ends after a newer 'modify' (Obsidian reads a note,
   * then parses it; a write may land between) must not let that older metadata decide meanwhile.
   * A note saved as UTF-16 with a frontmatter block (utf16-rules rulesTextOf) is never the cache's
   * to answer: it stays judged from its block, and the listeners hear when that is news.
   */
  private remember(file: TFile, data: string, cache: CachedMetadata): void {
    const rules = rulesTextOf(data);
    if (this.modified.has(file.path)) {
      const now = this.current(file);
      if (now !== null && now.block !== frontMatterInfo(rules).frontmatter) return;
    }
    if (rules !== data && frontMatterInfo(rules).exists) {
      // A note saved as UTF-16 (utf16-rules.ts): the metadata cache sees no frontmatter in it, so it stays judged
      // from its own block (as a note the cache is behind on), never by the cache's empty reading.
      const block = frontMatterInfo(rules).frontmatter;
      const known = this.blocks.get(file.path);
      const news = !this.modified.has(file.path) || known?.block !== block;
      this.blocks.set(file.path, { mtime: file.stat.mtime, size: file.stat.size, block });
      this.modified.add(file.path);
      if (news) for (const listener of this.listeners) listener(file.path);
      return;
    }
    this.modified.delete(file.path);
    if (hasUnparsedFrontmatter(cache)) {
      this.blocks.set(file.path, { mtime: file.stat.mtime, size: file.stat.size, block: frontMatterInfo(data).frontmatter });
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
        this.blocks.set(file.path, { mtime, size, block: frontMatterInfo(rulesTextOf(text)).frontmatter });
        for (const listener of this.listeners) listener(file.path);
      })
      .catch(() => undefined)
      .finally(() => this.reading.delete(file.path));
  }
}

/**
 * The disk's stat of `file` (links followed; mtime in ms, size in bytes): null when it cannot be
 * stat'ed (gone, replaced by a folder), undefined when the vault has no disk paths.
 */
function diskStamp(app: App, file: TFile): DiskStamp | null | undefined {
  const adapter = app.vault.adapter;
  if (!(adapter instanceof FileSystemAdapter)) return undefined;
  try {
    const stat = statSync(adapter.getFullPath(file.path));
    return stat.isFile() ? { mtime: stat.mtimeMs, size: stat.size } : null;
  } catch {
    return null;
  }
}

/**
 * The block of `raw` parsed with the app's `parseYaml` (as the metadata cache parses
 * frontmatter), computed once and kept on `raw`: the mapping, or null when the block is empty,
 * does not parse, or parses to something else (a list, a text), which the metadata cache would
 * leave without `frontmatter` too (hasUnparsedFrontmatter).
 */
function parsedData(raw: RawBlock): Record<string, unknown> | null {
  if (raw.data !== undefined) return raw.data;
  let data: unknown = null;
  if (raw.block.trim() !== '') {
    try {
      data = parseYamlOnce(raw.block.replace(/\r\n?/g, '\n'));
    } catch {
      data = null;
    }
  }
  raw.data = data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : null;
  return raw.data;
}

/**
 * True when a raw block names an access rule: a key of its parsed mapping (rule-keys namesAccessRules),
 * or, when it does not parse to one, any place unparsedRules finds.
 */
function blockNamesRule(raw: RawBlock): boolean {
  const data = parsedData(raw);
  return data ? namesAccessRules(data) : unparsedRules(raw.block).length > 0;
}
