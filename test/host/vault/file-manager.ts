import type * as O from 'obsidian';
import { TAbstractFile, TFile, TFolder } from './abstract-file';
import type { Vault } from './vault';
import type { MetadataCache } from '../markdown/metadata-cache';
import { editFrontmatter } from '../markdown/frontmatter-edit';
import { getFrontMatterInfo } from '../markdown/frontmatter';
import { getLinkpath } from '../markdown/link-text';
import { normalizePath, splitExtension } from './path';
import {
  applyLinkEdits,
  isWikiReference,
  LinkEdit,
  LinkpathStyle,
  rewriteFrontmatterLinks,
  rewriteMarkdownLink,
  rewriteWikilink,
} from '../markdown/link-rewrite';

/** Links found in one note that point into a file or folder about to move. */
interface RenamePlan {
  edits: Array<LinkEdit & { wiki: boolean }>;
  frontmatter: Array<{ original: string; target: TFile }>;
}

/**
 * Obsidian's `FileManager` (obsidian.d.ts) with the default user preferences: links are
 * updated on rename ("Automatically update internal links" on, "shortest path when possible"),
 * deleted files go to the system trash (the vault's `.trash/` in Node), new notes and
 * attachments go to the vault root.
 */
export class FileManager implements O.FileManager {
  /** Host: the answer `promptForDeletion` gets from the (absent) user; default true. */
  deletionAnswer = true;

  /** Creates a file manager over the host vault and its metadata cache. */
  constructor(
    private readonly vault: Vault,
    private readonly metadataCache: MetadataCache,
  ) {}

  /** The folder for new notes: the vault root (Obsidian's default "Vault folder"). */
  getNewFileParent(_sourcePath: string, _newFilePath?: string): TFolder {
    return this.vault.getRoot();
  }

  /**
   * Renames or moves a file or folder, then rewrites every wikilink, embed, Markdown link and
   * frontmatter link in the vault that pointed at it (or, for a folder, at anything inside),
   * keeping each link's subpath and alias. Waits for pending indexing first. Throws what
   * `vault.rename` throws (e.g. "Destination file already exists!") before changing anything.
   */
  async renameFile(file: O.TAbstractFile, newPath: string): Promise<void> {
    const entry = file as unknown as TAbstractFile;
    await this.metadataCache.whenResolved();
    const plans = this.planRename(entry);
    await this.vault.rename(entry, newPath);
    for (const [source, plan] of plans) {
      if (this.vault.getFileByPath(source.path) !== source) continue;
      const style = this.linkpathStyle();
      await this.vault.process(source, (text) => {
        const edits = plan.edits.map((e) => ({
          ...e,
          replacement: e.wiki
            ? rewriteWikilink(e.original, e.target, style)
            : rewriteMarkdownLink(e.original, source.path, e.target, style),
        }));
        const next = applyLinkEdits(text, edits);
        const fm = getFrontMatterInfo(next);
        if (!fm.exists || plan.frontmatter.length === 0) return next;
        const links = plan.frontmatter.map((l) => ({ original: l.original, replacement: rewriteWikilink(l.original, l.target, style) }));
        return rewriteFrontmatterLinks(next, fm.contentStart, links);
      });
    }
  }

  /** Asks the (absent) user: `deletionAnswer`; when true the file is trashed. Returns the answer. */
  async promptForDeletion(file: O.TAbstractFile): Promise<boolean> {
    if (!this.deletionAnswer) return false;
    await this.trashFile(file);
    return true;
  }

  /** Moves a file or folder to the trash per the default preference (system, else `.trash/`). */
  async trashFile(file: O.TAbstractFile): Promise<void> {
    await this.vault.trash(file as unknown as TAbstractFile, true);
  }

  /**
   * A link to `file` as Obsidian writes it by default: a wikilink with the shortest unique
   * linktext, plus `subpath` (starting with `#`) and `|alias` when given.
   */
  generateMarkdownLink(file: O.TFile, sourcePath: string, subpath?: string, alias?: string): string {
    const linktext = this.metadataCache.fileToLinktext(file, sourcePath, true);
    return `[[${linktext}${subpath ?? ''}${alias ? '|' + alias : ''}]]`;
  }

  /**
   * Parses the note's frontmatter, calls `fn` with it as a mutable object and writes the
   * changes back atomically through `vault.process` (see frontmatter-edit.ts). Throws
   * YAMLParseError for invalid frontmatter, leaving the file untouched, and rethrows what
   * `fn` throws.
   */
  async processFrontMatter(file: O.TFile, fn: (frontmatter: any) => void, options?: O.DataWriteOptions): Promise<void> {
    await this.vault.process(file as unknown as TFile, (text) => editFrontmatter(text, fn), options);
  }

  /**
   * A free vault path for an attachment named `filename` in the attachment folder (the vault
   * root by default): `name.ext`, else `name 1.ext`, `name 2.ext`, ...
   */
  async getAvailablePathForAttachment(filename: string, _sourcePath?: string): Promise<string> {
    const name = normalizePath(filename).split('/').pop() as string;
    const [stem, ext] = splitExtension(name);
    let candidate = name;
    for (let n = 1; this.vault.getAbstractFileByPath(candidate) || (await this.vault.adapter.exists(candidate)); n++) {
      candidate = `${stem} ${n}${ext ? '.' + ext : ''}`;
    }
    return candidate;
  }

  /** Shortest unique linkpath (or full path), with `.md` only when asked to keep it. */
  private linkpathStyle(): LinkpathStyle {
    return (target, keepExtension, fullPath) => {
      const text = fullPath ? target.path : this.metadataCache.fileToLinktext(target, '', false);
      return !keepExtension && target.extension === 'md' ? text.replace(/\.md$/, '') : text;
    };
  }

  /** Finds every link in the vault that resolves into `entry`, before it moves. */
  private planRename(entry: TAbstractFile): Map<TFile, RenamePlan> {
    const moving = new Set<TFile>(entry instanceof TFolder ? this.allFiles(entry) : entry instanceof TFile ? [entry] : []);
    const plans = new Map<TFile, RenamePlan>();
    for (const source of this.vault.getMarkdownFiles()) {
      const cache = this.metadataCache.getFileCache(source);
      if (!cache) continue;
      const plan: RenamePlan = { edits: [], frontmatter: [] };
      for (const ref of [...(cache.links ?? []), ...(cache.embeds ?? [])]) {
        const target = this.targetOf(ref.link, source.path, moving);
        if (target) {
          const { start, end } = ref.position;
          plan.edits.push({ from: start.offset, to: end.offset, original: ref.original, target, wiki: isWikiReference(ref) });
        }
      }
      for (const ref of cache.frontmatterLinks ?? []) {
        const target = this.targetOf(ref.link, source.path, moving);
        if (target) plan.frontmatter.push({ original: ref.original, target });
      }
      if (plan.edits.length || plan.frontmatter.length) plans.set(source, plan);
    }
    return plans;
  }

  private targetOf(link: string, sourcePath: string, moving: Set<TFile>): TFile | null {
    const linkpath = getLinkpath(link);
    if (linkpath === '') return null;
    const dest = this.metadataCache.getFirstLinkpathDest(linkpath, sourcePath);
    return dest && moving.has(dest) ? dest : null;
  }

  private allFiles(folder: TFolder): TFile[] {
    return folder.children.flatMap((c) => (c instanceof TFolder ? this.allFiles(c) : c instanceof TFile ? [c] : []));
  }
}
