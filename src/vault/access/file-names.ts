import { TFile, type App, type EventRef, type TAbstractFile } from 'obsidian';
import type { OutsideLinks } from './outside-links';

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
 * `stat`ed once and the files with several names are remembered by inode, until a file with
 * several names is created or renamed in (its partners may have had one name when counted): a
 * name added by another program comes as such a create. A file replaced in place gets a new inode
 * and, as a rule, one name.
 */
export class FileNames {
  /** Device-and-inode id → the vault paths of Markdown files with that id and more than one name; null until needed. */
  private byInode: Map<string, string[]> | null = null;
  private readonly refs: EventRef[] = [];

  /** @param app the Obsidian app (its vault and events). @param outside where links lead, and each path's disk file. */
  constructor(
    private readonly app: App,
    private readonly outside: OutsideLinks,
  ) {
    const arrived = (entry: TAbstractFile): void => {
      if (this.byInode !== null && entry instanceof TFile && entry.extension === 'md' && (this.outside.fileOf(entry.path)?.links ?? 1) > 1)
        this.byInode = null;
    };
    this.refs.push(app.vault.on('create', arrived), app.vault.on('rename', arrived));
  }

  /** Stops following vault events and forgets the inodes; call when the plugin unloads. */
  close(): void {
    for (const ref of this.refs) this.app.vault.offref(ref);
    this.refs.length = 0;
    this.byInode = null;
  }

  /**
   * The other Markdown files the vault lists that are the same file on disk as `file`: the file a
   * link at `file.path` leads to, the links leading to it (OutsideLinks.linksInto), and its hard
   * links (same device and inode) with the links leading to them.
   * @returns the files, `file` itself left out; empty for a note with one name (the usual case:
   *   one cached place lookup and one `stat`). Never throws.
   */
  othersOf(file: TFile): TFile[] {
    const real = this.outside.placeOf(file.path).alias ?? file.path;
    const paths = new Set<string>([real, ...this.outside.linksInto(real)]);
    const disk = this.outside.fileOf(real);
    if (disk !== null && disk.links > 1)
      for (const path of this.hardLinksOf(disk.id)) {
        paths.add(path);
        for (const link of this.outside.linksInto(path)) paths.add(link);
      }
    paths.delete(file.path);
    const out: TFile[] = [];
    for (const path of paths) {
      const other = this.app.vault.getAbstractFileByPath(path);
      if (other instanceof TFile && other.extension === 'md') out.push(other);
    }
    return out;
  }

  /** The vault paths of Markdown files with the disk id `id`, from the count (made now when there is none). */
  private hardLinksOf(id: string): string[] {
    this.byInode ??= this.count();
    return this.byInode.get(id) ?? [];
  }

  /** Every Markdown file of the vault with more than one name, by its disk id (one `stat` each). */
  private count(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const file of this.app.vault.getMarkdownFiles()) {
      const disk = this.outside.fileOf(file.path);
      if (disk === null || disk.links < 2) continue;
      const names = out.get(disk.id);
      if (names === undefined) out.set(disk.id, [file.path]);
      else names.push(file.path);
    }
    return out;
  }
}
