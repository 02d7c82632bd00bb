import type { TFile, Vault } from 'obsidian';
import { ToolError } from '../../errors';
import { noteNotFound } from '../writes/frontmatter/frontmatter-guard';
import type { JudgedPlace, NotePolicy } from '../note-policy';

/** What a judged read asks of NotePolicy: the write routes' own disk checks (NotePolicy.judgedPlace, isWhereJudgedNow) and quarantine. */
export type DiskReadPolicy = Pick<NotePolicy, 'judgedPlace' | 'isWhereJudgedNow' | 'isQuarantined'>;

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
 * session 30). So each read is judged on the disk right before and right after it, by the checks
 * the write routes use (NotePolicy.judgedPlace and isWhereJudgedNow: an `lstat` per segment,
 * `realpath` when a link is on the way, about 0.03–0.2 ms each), and the file must still not be
 * quarantined where the cache now places it; else nothing read is returned and the route answers
 * as for a missing note ({@link ReplacedOnDisk}).
 */
export class DiskReads {
  /**
   * @param vault the vault whose `cacheLimit` says which notes it always reads from disk.
   * @param policy the disk checks.
   * @param onReplaced told of a path whose read was refused (the store drops its scans, so a
   *   lookup made again judges the path as it is now).
   */
  constructor(
    private readonly vault: Vault,
    private readonly policy: DiskReadPolicy,
    private readonly onReplaced: (path: string) => void = () => {},
  ) {}

  /**
   * Runs `read` (a read of `file` through its path) only while the file lies where the access
   * checks placed it, judged on the disk before and after it (see {@link DiskReads}).
   * @returns what `read` returned.
   * @throws ReplacedOnDisk when either judgement fails (the read's result is dropped); what `read` throws.
   */
  async judged<T>(file: TFile, read: () => Promise<T>): Promise<T> {
    const judged = this.policy.judgedPlace(file.path);
    this.assertWhereJudged(file.path, judged);
    const value = await read();
    this.assertWhereJudged(file.path, judged);
    return value;
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
   * True when `file` lies where the access checks place it, judged on the disk now (as
   * {@link judged} judges a read): for text read before that must not be shown otherwise.
   */
  liesWhereJudged(file: TFile): boolean {
    const judged = this.policy.judgedPlace(file.path);
    if (this.isWhereJudged(file.path, judged)) return true;
    this.refused(file.path);
    return false;
  }

  /** The vault's `cacheLimit` (unofficial; the test host has it too), else {@link DEFAULT_CACHE_LIMIT}. */
  private cacheLimit(): number {
    const limit = (this.vault as unknown as { cacheLimit?: unknown }).cacheLimit;
    return typeof limit === 'number' && Number.isFinite(limit) ? limit : DEFAULT_CACHE_LIMIT;
  }

  /** @throws ReplacedOnDisk (after {@link refused}) unless {@link isWhereJudged}. */
  private assertWhereJudged(path: string, judged: JudgedPlace): void {
    if (this.isWhereJudged(path, judged)) return;
    this.refused(path);
    throw new ReplacedOnDisk(path);
  }

  /**
   * After a refused read of `path`: its own cached answer is gone already (OutsideLinks.placeNow
   * drops the answer for a path it finds a link at, or leading elsewhere); each folder above it
   * is judged on the disk too, so one swapped for a link drops its answer as well and a lookup
   * made again judges the whole path as the disk has it (the folder's check result itself is not
   * needed). Then the store is told (onReplaced). A few `lstat`s, only when a read was refused.
   */
  private refused(path: string): void {
    for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) {
      const folder = path.slice(0, slash);
      this.policy.isWhereJudgedNow(folder, this.policy.judgedPlace(folder));
    }
    this.onReplaced(path);
  }

  /** Not quarantined by the cached answer (a place judged afresh when the cache was dropped) and, on the disk now, where `judged` says. */
  private isWhereJudged(path: string, judged: JudgedPlace): boolean {
    return !judged.outside && !this.policy.isQuarantined(path) && this.policy.isWhereJudgedNow(path, judged);
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
