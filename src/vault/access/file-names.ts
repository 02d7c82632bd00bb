import { TFile, type App, type EventRef, type TAbstractFile } from 'obsidian';
import type { OutsideLinks } from './outside-links';

/** Longest one slice of the hard-link count runs before it yields to the UI, ms (indexing's slices stay well under 50 ms). */
const COUNT_SLICE_MS = 8;

/**
 * The other names the vault lists for one file on disk: a file symbolic link in the vault
 * (`Public/diary.md → ../Notes/Diary.md`, which Obsidian lists as a note of its own) and a hard
 * link (`ln`: two paths, one inode). Obsidian knows neither: a change written through one name
 * is reported for that path alone (its 'modify' event, then its metadata cache entry), while the
 * other name keeps its old metadata, `access` rule included (verifier, session 30, F1). The
 * access checks ask this on every change of a note (UnparsedFrontmatter), so a rule added
 * through one name holds under all of them.
 *
 * Links are those OutsideLinks has judged (every access check and the index's scan judge each
 * note's place). Hard links are found by device and inode: a note with one name (`nlink` 1, one
 * `stat` per change) costs nothing more; for one with several, every Markdown file of the vault is
 * `stat`ed once, in slices of {@link COUNT_SLICE_MS} (a 100k-note vault takes a second or more),
 * and the files with several names are remembered by inode, until a file with several names is
 * created or renamed in (its partners may have had one name when counted): a name added by another
 * program comes as such a create. A file replaced in place gets a new inode and, as a rule, one
 * name. Until a count ends, the names it will find are told late; meanwhile each read of such a
 * name judges the file on disk, whose stat the vault's entry for that name no longer describes
 * (NotePolicy.mayServe).
 */
export class FileNames {
  /** Device-and-inode id → the vault paths of Markdown files with that id and more than one name; null until counted. */
  private byInode: Map<string, string[]> | null = null;
  /** The count under way and what waits for it (ids whose names to tell, and to whom); null when none runs. */
  private counting: { waiting: Array<() => void>; timer: ReturnType<typeof setTimeout> | null } | null = null;
  private readonly refs: EventRef[] = [];

  /** @param app the Obsidian app (its vault and events). @param outside where links lead, and each path's disk file. */
  constructor(
    private readonly app: App,
    private readonly outside: OutsideLinks,
  ) {
    const arrived = (entry: TAbstractFile): void => {
      if (
        (this.byInode !== null || this.counting !== null) &&
        entry instanceof TFile &&
        entry.extension === 'md' &&
        (this.outside.fileOf(entry.path)?.links ?? 1) > 1
      )
        this.restartCount();
    };
    this.refs.push(app.vault.on('create', arrived), app.vault.on('rename', arrived));
  }

  /** Stops following vault events, ends a count under way and forgets the inodes; call when the plugin unloads. */
  close(): void {
    for (const ref of this.refs) this.app.vault.offref(ref);
    this.refs.length = 0;
    if (this.counting?.timer) clearTimeout(this.counting.timer);
    this.counting = null;
    this.byInode = null;
  }

  /**
   * The other Markdown files the vault lists that are the same file on disk as `file`: the file a
   * link at `file.path` leads to, the links leading to it (OutsideLinks.linksInto), and its hard
   * links (same device and inode) with the links leading to them.
   * @param late called once with the hard links (and links to them) found when the vault's count of
   *   hard links ends, when it was not made yet (then they are not in the answer)
   * @returns the files known now, `file` itself left out; empty for a note with one name (the usual
   *   case: one cached place lookup and one `stat`). Never throws.
   */
  othersOf(file: TFile, late: (others: TFile[]) => void): TFile[] {
    const real = this.outside.placeOf(file.path).alias ?? file.path;
    const paths = new Set<string>([real, ...this.outside.linksInto(real)]);
    const disk = this.outside.fileOf(real);
    if (disk !== null && disk.links > 1) {
      if (this.byInode !== null) this.addHardLinks(paths, disk.id);
      else
        this.whenCounted(() => {
          const more = new Set<string>();
          this.addHardLinks(more, disk.id);
          for (const path of paths) more.delete(path);
          const others = this.filesAt(more, file.path);
          if (others.length > 0) late(others);
        });
    }
    return this.filesAt(paths, file.path);
  }

  /** Adds to `paths` the vault paths of the Markdown files with disk id `id` and the links leading to them. */
  private addHardLinks(paths: Set<string>, id: string): void {
    for (const path of this.byInode?.get(id) ?? []) {
      paths.add(path);
      for (const link of this.outside.linksInto(path)) paths.add(link);
    }
  }

  /** The Markdown files the vault lists at `paths`, `self` left out. */
  private filesAt(paths: Iterable<string>, self: string): TFile[] {
    const out: TFile[] = [];
    for (const path of paths) {
      if (path === self) continue;
      const other = this.app.vault.getAbstractFileByPath(path);
      if (other instanceof TFile && other.extension === 'md') out.push(other);
    }
    return out;
  }

  /** Calls `then` once the vault's hard links are counted, starting a count when none runs. */
  private whenCounted(then: () => void): void {
    if (this.counting !== null) {
      this.counting.waiting.push(then);
      return;
    }
    // A small vault is counted at once (then is called before this returns).
    this.counting = { waiting: [then], timer: null };
    this.count(this.counting);
  }

  /** Drops the count (a file with several names came in) and, when something waits for one, counts again from the start. */
  private restartCount(): void {
    this.byInode = null;
    const running = this.counting;
    if (running === null) return;
    if (running.timer) clearTimeout(running.timer);
    this.counting = { waiting: running.waiting, timer: null };
    this.count(this.counting);
  }

  /**
   * Counts every Markdown file of the vault with more than one name, by its disk id (one `stat`
   * each), in slices of {@link COUNT_SLICE_MS}; then keeps the answer and calls what waits for it.
   */
  private count(run: { waiting: Array<() => void>; timer: ReturnType<typeof setTimeout> | null }): void {
    const files = this.app.vault.getMarkdownFiles();
    const found = new Map<string, string[]>();
    let next = 0;
    const step = (): void => {
      run.timer = null;
      if (this.counting !== run) return;
      const until = performance.now() + COUNT_SLICE_MS;
      for (; next < files.length && performance.now() < until; next++) {
        const disk = this.outside.fileOf(files[next].path);
        if (disk === null || disk.links < 2) continue;
        const names = found.get(disk.id);
        if (names === undefined) found.set(disk.id, [files[next].path]);
        else names.push(files[next].path);
      }
      if (next < files.length) {
        run.timer = setTimeout(step, 0);
        return;
      }
      this.byInode = found;
      this.counting = null;
      for (const then of run.waiting) then();
    };
    step();
  }
}
