import { TFile, TFolder, type App, type EventRef, type TAbstractFile } from 'obsidian';
import { isPathInside } from '../paths/paths';
import { touchesSkills } from '../skills';
import type { HoldRule } from '../writes/write-types';
import { hasInstructionName, isAgentInstructionPath } from './agent-instructions';

/** What {@link InstructionPlaces} asks of the vault's path policy (NotePolicy). */
export interface InstructionPlacesPolicy {
  /** The vault path an entry really lies at when a symbolic link inside the vault leads there, else null (NotePolicy.realPathOf). */
  realPathOf(path: string): string | null;
  /** The vault path a symbolic link at `path` names, even when nothing is there (NotePolicy.linkTargetOf). */
  linkTargetOf(path: string): string | null;
  /** Whatever occupies a path, ignoring case and Unicode form (NotePolicy.entryAt). */
  entryAt(path: string): TAbstractFile | null;
  /** The disk file behind a path: device-and-inode id and link count (NotePolicy.fileOf). */
  fileOf(path: string): { id: string; links: number } | null;
}

/** What {@link InstructionPlaces} knows for one skills folder, until a change in the vault may have changed it. */
interface KnownPlaces {
  /** The skills folder these were found for. */
  folder: string;
  /** Vault paths (files or folders) that an in-vault symbolic link by an instruction name or inside the skills folder leads to, not instruction paths by themselves. */
  targets: string[];
  /** Vault paths of the files named like an instruction file (for the hard-link check). */
  named: string[];
}

/**
 * Where agent instructions really are, for "agent instructions are the user's to write"
 * (write-gate.ts, docs/security.md): the paths {@link isAgentInstructionPath} names, plus the places
 * symbolic links inside the vault make instructions of. A link named like an instruction file
 * (`Areas/Finance/AGENTS.md → CLAUDE.md`) or lying in the skills folder (`Skills/tools →
 * ../Reference/Tools`) makes its target's own path (`Areas/Finance/CLAUDE.md`,
 * `Reference/Tools/SKILL.md`) an instruction place: writing, moving, deleting or creating there
 * changes what agents are told. A link whose target is missing (the target moved away while
 * Obsidian still lists the link) names where it would be recreated ({@link InstructionPlacesPolicy.linkTargetOf}).
 * And a note that is a hard link of an instruction file (same device and inode, its link count
 * above 1) changes that file when written.
 *
 * The link targets come from the entries named like an instruction file and the skills folder's
 * tree, kept until the vault reports a create, delete or rename that may change them (a path by an
 * instruction name, in or around the skills folder, at or around a known target, or any folder
 * deleted or renamed) or the skills folder setting changes: an ordinary force write costs a few
 * string comparisons and one `stat` of its note. The named entries are found by one pass over the
 * vault's entries, the first time only, and then kept up to date from the same events, so finding
 * the targets again (after a folder rename, say) reads those few entries, never the whole vault
 * (the plugin's 50 ms main-thread rule: a pass took 20–40 ms at 40k entries, docs/limits.md).
 * A dangling link Obsidian does not list (its target was missing when the vault loaded) is not
 * known: nothing lists it short of reading every folder on disk (docs/security.md).
 */
export class InstructionPlaces {
  private known: KnownPlaces | null = null;
  /**
   * Vault paths of every loaded entry (file or folder) named like an instruction file
   * ({@link hasInstructionName}), found by one pass over the vault's entries the first time the
   * places are found, then kept up to date from create and rename events (the vault reports a
   * rename of each entry below a renamed folder, as note-changes.ts relies on too), so finding the
   * places again after a change reads these few entries, not the whole vault. A path whose entry
   * is gone (deleted, moved away) stays until the next finding drops it; whatever is at such a
   * path has an instruction name (a deleted file's path may even be added). Unset until first needed.
   */
  private named?: Set<string>;
  private readonly refs: EventRef[] = [];

  /** @param app the Obsidian app (vault entries and events). @param policy the vault's path policy (links, disk files). */
  constructor(
    private readonly app: App,
    private readonly policy: InstructionPlacesPolicy,
  ) {
    const changed = (file: TAbstractFile, oldPath?: string): void => {
      if (hasInstructionName(file.name)) this.named?.add(file.path);
      if (this.known === null) return;
      const folderGone = file instanceof TFolder && oldPath !== undefined;
      if (folderGone || this.touches(file.path) || (oldPath !== undefined && this.touches(oldPath))) this.known = null;
    };
    const deleted = (file: TAbstractFile): void => {
      if (file instanceof TFolder) this.known = null;
      else changed(file);
    };
    this.refs.push(
      app.vault.on('create', (file) => changed(file)),
      app.vault.on('delete', deleted),
      app.vault.on('rename', changed),
    );
  }

  /** Stops following vault events; call when the plugin unloads. */
  close(): void {
    for (const ref of this.refs) this.app.vault.offref(ref);
    this.refs.length = 0;
  }

  /**
   * The hold rule of a force key's writes (NoteWriter.apply): {@link holds} for `skillsFolder`.
   * @param skillsFolder the skills folder's vault path (skillsFolderOf).
   */
  ruleFor(skillsFolder: string): HoldRule {
    return (path) => this.holds(path, skillsFolder);
  }

  /**
   * True when a write changing the vault path `path` (file or folder, existing or not) changes
   * agent instructions: an instruction path by name or place ({@link isAgentInstructionPath}), at
   * or below a place a symbolic link makes an instruction place, or a file on disk that is also an
   * instruction file (a hard link). Case and Unicode form are ignored, as isAgentInstructionPath ignores them.
   * @param path a normalized vault path. @param skillsFolder the skills folder's vault path.
   */
  holds(path: string, skillsFolder: string): boolean {
    if (path === '') return false;
    if (isAgentInstructionPath(path, skillsFolder)) return true;
    const known = this.knownFor(skillsFolder);
    if (known.targets.some((target) => isPathInside(path, target, true))) return true;
    return this.isHardLinkOfInstructions(path, known);
  }

  /** True when a change at `path` may change what {@link known} holds: drop it then. */
  private touches(path: string): boolean {
    const known = this.known;
    if (known === null) return false;
    if (hasInstructionName(path) || touchesSkills(path, known.folder)) return true;
    return known.targets.some((target) => isPathInside(path, target, true) || isPathInside(target, path, true));
  }

  /**
   * The places for `folder`: kept, or found now from the entries named like an instruction file
   * ({@link named}) and the skills folder's tree. Only the first time reads every entry of
   * the vault; after a change it costs as many entries as those (a folder renamed or deleted no
   * longer costs a pass over a 100k-note vault before the next force write: docs/limits.md).
   */
  private knownFor(folder: string): KnownPlaces {
    if (this.known?.folder === folder) return this.known;
    const targets = new Set<string>();
    const named: string[] = [];
    /** Adds where `entry` leads when it is a link (or below one); true when it was. */
    const follow = (entry: TAbstractFile): boolean => {
      const real = this.policy.realPathOf(entry.path) ?? this.policy.linkTargetOf(entry.path);
      if (real === null || real === entry.path) return false;
      if (!isAgentInstructionPath(real, folder)) targets.add(real);
      return true;
    };
    this.named ??= new Set(
      this.app.vault
        .getAllLoadedFiles()
        .filter((entry) => hasInstructionName(entry.name))
        .map((entry) => entry.path),
    );
    for (const path of this.named) {
      const entry = this.app.vault.getAbstractFileByPath(path);
      if (entry?.path !== path) {
        this.named.delete(path);
        continue;
      }
      if (entry instanceof TFile) named.push(path);
      follow(entry);
    }
    const walk = (entry: TAbstractFile): void => {
      // Below a link everything lies below its target, which is added whole.
      if (follow(entry) || !(entry instanceof TFolder)) return;
      for (const child of entry.children) walk(child);
    };
    const skills = this.policy.entryAt(folder);
    if (skills !== null) walk(skills);
    this.known = { folder, targets: [...targets], named };
    return this.known;
  }

  /**
   * True when `path` is a note whose disk file has more than one name and is the same file
   * (device and inode) as an instruction file: a named one, one in the skills folder or at a link's
   * target. One `stat` of the note; the instruction files are stat'ed only for such a note.
   */
  private isHardLinkOfInstructions(path: string, known: KnownPlaces): boolean {
    if (!(this.app.vault.getAbstractFileByPath(path) instanceof TFile)) return false;
    const file = this.policy.fileOf(path);
    if (file === null || file.links < 2) return false;
    const candidates = [...known.named];
    const collect = (entry: TAbstractFile | null): void => {
      if (entry instanceof TFile) candidates.push(entry.path);
      else if (entry instanceof TFolder) for (const child of entry.children) collect(child);
    };
    collect(this.policy.entryAt(known.folder));
    for (const target of known.targets) collect(this.policy.entryAt(target));
    return candidates.some((candidate) => candidate !== path && this.policy.fileOf(candidate)?.id === file.id);
  }
}
