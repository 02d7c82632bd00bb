import { FileSystemAdapter, type TFile, type Vault } from 'obsidian';
import { ToolError } from '../../errors';
import { noteNotFound } from '../writes/frontmatter/frontmatter-guard';
import type { JudgedPlace, NotePolicy } from '../note-policy';
import type { FileOnDisk } from './outside-links';
import type { DiskStamp } from './unparsed-frontmatter';

/** What a judged read asks of NotePolicy: the cached place, the file at a path (fileOf, ownFileOf), the write routes' own disk checks (fileWhereJudgedNow, isWhereJudgedNow) and quarantine. */
export type DiskReadPolicy = Pick<
  NotePolicy,
  'cachedPlace' | 'fileOf' | 'ownFileOf' | 'fileWhereJudgedNow' | 'isWhereJudgedNow' | 'isQuarantined'
>;

/**
 * The file a judged read saw on the disk (NotePolicy.fileWhereJudgedNow), as a stamp for
 * NotePolicy.mayServe: its modification time (ms) and size (bytes); null when no regular file could
 * be stat'ed there; undefined when the vault has no disk paths.
 */
export type SeenOnDisk = DiskStamp | null | undefined;

/**
 * The longest text (chars) Obsidian keeps in memory for `vault.cachedRead` when the vault does not
 * say (its unofficial `vault.cacheLimit`, 65,536 by default): a longer note is read from disk on
 * every read.
 */
export const DEFAULT_CACHE_LIMIT = 65_536;

/**
 * A read refused because the entry at the file's path on disk no longer lies where the access
 * checks placed it (another program swapped a symbolic link in before the vault's event: see
 * {@link DiskReads}). A ToolError('not_found') worded as a missing note's, for a route that does
 * not answer it itself; NoteStore's reads turn it into "answer as missing" ({@link nullIfReplaced}),
 * and a route that can look the note up again does (NoteStore.resolveAndRead), so the answer is
 * exactly the one for a note that does not exist.
 */
export class ReplacedOnDisk extends ToolError {
  /** @param path the vault path whose read was refused. */
  constructor(readonly path: string) {
    super('not_found', noteNotFound(path).message);
    this.name = 'ReplacedOnDisk';
  }
}

/**
 * Reads that go to disk, judged where the file lies at the read (docs/security.md#symbolic-links).
 * Reads judge a path by the cached answer (OutsideLinks.placeOf), which vault events keep true;
 * but the vault reads a file through whatever is at its path now, and another program (a sync
 * client, git) can swap a note for a symbolic link (`ln -s target tmp && mv tmp note`) before the
 * vault's event tells of it. A read that then went to disk (a note Obsidian does not hold in
 * memory: one it has not read yet, or one longer than `vault.cacheLimit`; a skill's script, always
 * read as bytes) served the link's target: a quarantined note, a file outside the vault (verifier,
 * session 30). So each read is judged on the disk right after it, by the checks the write routes
 * use (NotePolicy.fileWhereJudgedNow: an `lstat` per segment and one `stat`, `realpath` when a
 * link is on the way, about 0.03–0.2 ms in all): the file must be the very one (device and inode)
 * an `lstat` found at its path right before the read (no link there), and must still not be
 * quarantined where the cache now places it; else nothing read is returned and the route answers
 * as for a missing note ({@link ReplacedOnDisk}). The `stat` of the look after the read is the
 * file's stamp for NotePolicy.mayServe. A search page's hits once took a whole look before each
 * read too, and a `stat` more in three places (docs/performance.md, session 31).
 */
export class DiskReads {
  /**
   * @param vault the vault whose `cacheLimit` says which notes it always reads from disk.
   * @param policy the disk checks.
   * @param onReplaced told of a path whose read was refused, with the place the read was judged by
   *   (the store drops its scans, so a lookup made again judges the path as it is now, and has the
   *   policy tell whoever decided by the old place: NotePolicy.placeJudgedAgain).
   */
  constructor(
    private readonly vault: Vault,
    private readonly policy: DiskReadPolicy,
    private readonly onReplaced: (path: string, judged: JudgedPlace) => void = () => {},
  ) {}

  /**
   * Runs `read` (a read of `file` through its path) only while the file lies where the access
   * checks placed it: the file at its path looked at before the read, the whole path judged on
   * the disk after it (see {@link DiskReads}).
   * @returns what `read` returned.
   * @throws ReplacedOnDisk when either judgement fails (the read's result is dropped); what `read` throws.
   */
  async judged<T>(file: TFile, read: () => Promise<T>): Promise<T> {
    return (await this.judgedSeen(file, read)).value;
  }

  /**
   * {@link judged}, answering also with the file as the look after the read saw it ({@link SeenOnDisk}).
   * @returns what `read` returned, and the file's stamp on the disk right after it.
   * @throws as {@link judged}.
   */
  async judgedSeen<T>(file: TFile, read: () => Promise<T>): Promise<{ value: T; disk: SeenOnDisk }> {
    const place = this.policy.cachedPlace(file.path);
    const before = this.fileBeforeRead(file.path, place);
    const value = await read();
    const disk = this.assertWhereJudged(file.path, { ...place, file: before?.id ?? null });
    return { value, disk };
  }

  /**
   * The look before a read: the cached place not outside nor quarantined, and a regular file at
   * `path` itself (one `lstat`: a link there is refused unless the user trusts it; where the cache
   * knows a link inside the vault, `alias`, one `stat` following it), so a folder, FIFO or device
   * found there is not read (a FIFO's read would wait for a writer; one swapped in between this
   * look and the read still can: docs/security.md); its device and inode are the ones the look
   * after the read must see. The folders above are judged by the look after the read only (an `lstat` each):
   * it alone decides what is served, and a folder swapped for a link and back again around one
   * read escapes either way, as one swapped in and out between two looks did.
   * @returns the file seen; undefined when the vault has no disk paths.
   * @throws ReplacedOnDisk (after {@link refused}) when the place or the file refuses the read.
   */
  private fileBeforeRead(path: string, place: JudgedPlace): FileOnDisk | undefined {
    if (!(this.vault.adapter instanceof FileSystemAdapter)) return undefined;
    const refuse = place.outside || this.policy.isQuarantined(path);
    const seen = refuse ? null : place.alias === null ? this.policy.ownFileOf(path) : this.policy.fileOf(path);
    if (seen !== null) return seen;
    this.refused(path, place);
    throw new ReplacedOnDisk(path);
  }

  /**
   * {@link judged} for a note Obsidian surely reads from disk (longer than {@link cacheLimit}
   * bytes); any other note's `read` runs with no disk check. For bulk reads whose text no agent
   * sees as such (the search index's builds and a query's phrase and regex checks): what they find
   * reaches an agent only as a search hit, judged by {@link liesWhereJudged} before it is shown.
   * @throws as {@link judged}.
   */
  async judgedFromDisk<T>(file: TFile, read: () => Promise<T>): Promise<T> {
    return file.stat.size > this.cacheLimit() ? this.judged(file, read) : read();
  }

  /**
   * Whether `file` lies where the access checks place it, judged on the disk now (as
   * {@link judged} judges a read): for text read before that must not be shown otherwise.
   * @returns false when it does not (the path is judged again from now on); else the file as that
   *   look saw it ({@link SeenOnDisk}).
   */
  liesWhereJudged(file: TFile): SeenOnDisk | false {
    const judged = this.policy.cachedPlace(file.path);
    const seen = this.fileWhereJudged(file.path, judged);
    if (seen === false) this.refused(file.path, judged);
    return seen;
  }

  /** The vault's `cacheLimit` (unofficial; the test host has it too), else {@link DEFAULT_CACHE_LIMIT}. */
  private cacheLimit(): number {
    const limit = (this.vault as unknown as { cacheLimit?: unknown }).cacheLimit;
    return typeof limit === 'number' && Number.isFinite(limit) ? limit : DEFAULT_CACHE_LIMIT;
  }

  /**
   * @returns the file {@link fileWhereJudged} saw.
   * @throws ReplacedOnDisk (after {@link refused}) when it answers false.
   */
  private assertWhereJudged(path: string, judged: JudgedPlace): FileOnDisk | null | undefined {
    const seen = this.fileWhereJudged(path, judged);
    if (seen !== false) return seen;
    this.refused(path, judged);
    throw new ReplacedOnDisk(path);
  }

  /**
   * After a refused read of `path`, judged by `judged`: the path itself and each folder above it
   * are judged on the disk, which drops the cached answer of one found to be a link or to lead
   * elsewhere (OutsideLinks.placeNow; the look before a read is one `lstat` of the file, which
   * keeps no answer), so a lookup made again judges the whole path as the disk has it (the checks'
   * results themselves are not needed). Then the store is told (onReplaced). A few `lstat`s, only
   * when a read was refused.
   */
  private refused(path: string, judged: JudgedPlace): void {
    for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) {
      const folder = path.slice(0, slash);
      this.policy.isWhereJudgedNow(folder, this.policy.cachedPlace(folder));
    }
    this.policy.isWhereJudgedNow(path, judged);
    this.onReplaced(path, judged);
  }

  /**
   * Not quarantined by the cached answer (a place judged afresh when the cache was dropped) and, on
   * the disk now, where `judged` says (NotePolicy.fileWhereJudgedNow).
   * @returns false when not; else the file seen there.
   */
  private fileWhereJudged(path: string, judged: JudgedPlace): ReturnType<NotePolicy['fileWhereJudgedNow']> {
    if (judged.outside || this.policy.isQuarantined(path)) return false;
    return this.policy.fileWhereJudgedNow(path, judged);
  }
}

/**
 * `error` again, unless it is a {@link ReplacedOnDisk}: for a read whose refusal means "leave
 * this one out" (an entry of a list, the instructions governing a note).
 * @returns null for a ReplacedOnDisk. @throws `error` otherwise.
 */
export function nullIfReplaced(error: unknown): null {
  if (error instanceof ReplacedOnDisk) return null;
  throw error;
}
