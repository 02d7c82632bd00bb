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
  /** True when trusted links lead a path out of the vault to where one of `places` (or a trusted link in one) lies too (NotePolicy.sharesOutsidePlace). */
  sharesOutsidePlace(path: string, places: readonly string[]): boolean;
}

/**
 * What a pass over many vault entries pauses with so it does not hold the main thread: a
 * search/engine Slicer, or anything with its `due` and `pause` (NoteStore.readableNotesInSteps takes the same).
 */
export interface Pacer {
  /** True once the current slice has run its budget: the work should {@link pause} before going on. */
  due(): boolean;
  /** Resolves at once inside the budget, else after yielding to the event loop (a fresh slice begins). */
  pause(): Promise<void>;
}

/**
 * The budget of one slice of {@link InstructionPlaces}' pass over the vault's entries, ms: well
 * under the plugin's 50 ms main-thread rule (issue 20), and small beside the search index's 12 ms
 * slices, which may run at the same time.
 */
export const INSTRUCTION_PASS_SLICE_MS = 5;

/** How many entries the pass reads between two looks at the clock ({@link Pacer.due}): a look costs more than reading a name. */
const ENTRIES_PER_CLOCK_LOOK = 128;

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
 * changes what agents are told. So does a second trusted link out of the vault (settings
 * `access.trustedSymlinks`) that reaches the place another trusted link leads an instruction place
 * to: with `Skills → ~/agent/skills` trusted the skills are served from there, and a trusted `Shared
 * → ~/agent` makes `Shared/skills` the same files (compared by real disk path only for a write under a
 * trusted link: {@link InstructionPlacesPolicy.sharesOutsidePlace}).
 * A link whose target is missing (the target moved away while
 * Obsidian still lists the link) names where it would be recreated ({@link InstructionPlacesPolicy.linkTargetOf}).
 * And a note that is a hard link of an instruction file (same device and inode, its link count
 * above 1) changes that file when written.
 *
 * The link targets come from the entries named like an instruction file and the skills folder's
 * tree, kept until the vault reports a create, delete or rename that may change them (a path by an
 * instruction name, in or around the skills folder, at or around a known target, or any folder
 * deleted or renamed) or the skills folder setting changes: an ordinary force write costs a few
 * string comparisons and one `stat` of its note. The named entries are found once by a pass over
 * every entry of the vault, started by the first force write's {@link ruleFor} in slices that
 * yield to the UI (the write gate's Slicer, {@link INSTRUCTION_PASS_SLICE_MS}); that write, and any
 * other made before the pass ends, waits for it, so none is let through on a partial list. They
 * are then kept up to date from the same events, so finding the targets again (after a folder rename,
 * say) reads those few entries, never the whole vault. The plugin's 50 ms main-thread rule (issue
 * 20): one pass in one go held the main thread 30–71 ms at 100k entries; sliced, its longest
 * stretch is 5 ms (5–10 ms in a process's first run), docs/limits.md. A dangling link
 * Obsidian does not list (its target was missing when the vault loaded) is not known: nothing
 * lists it short of reading every folder on disk (docs/security.md).
 */
export class InstructionPlaces {
  private known: KnownPlaces | null = null;
  /**
   * Vault paths of every loaded entry (file or folder) named like an instruction file
   * ({@link hasInstructionName}): made empty when the pass over the vault's entries starts
   * ({@link unvisited}), which fills it, and from then on kept up to date from create and rename
   * events (the vault reports a rename of each entry below a renamed folder, as note-changes.ts
   * relies on too), so finding the places again after a change reads these few entries, not the
   * whole vault. A path whose entry is gone (deleted, moved away) stays until the next finding drops
   * it; whatever is at such a path has an instruction name (a deleted file's path may even be
   * added). Unset until the pass starts.
   */
  private named?: Set<string>;
  /**
   * The pass's work left: entries whose names (and a folder's children) are not read yet, taken
   * last first; empty once the pass is done. A folder's children are taken as they are when it is
   * read. Complete despite changes meanwhile: an entry that no event touches keeps its folder, and
   * so do that folder's folders (a folder renamed or deleted reports each entry below it), so the
   * pass reaches it from the root; one that a create or rename touches is added by the event;
   * a path the pass adds after its entry moved or went away is one {@link named} tolerates.
   */
  private unvisited: TAbstractFile[] = [];
  /** The pass over the vault's entries that {@link ruleFor} started, while it runs and once done. */
  private pass?: Promise<void>;
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
   * The hold rule of a force key's writes (NoteWriter.apply): {@link holds} for `skillsFolder`,
   * once the pass over the vault's entries is done. The first call starts that pass, in slices
   * that yield through `pacer` (without one, in one go); every call made before it ends waits for
   * it, so the rule answers in a few comparisons, never blocks the UI for a pass, and never holds
   * less because the pass was not done.
   * @param skillsFolder the skills folder's vault path (skillsFolderOf).
   * @param pacer what the pass yields to the UI through (a search/engine Slicer of
   *   {@link INSTRUCTION_PASS_SLICE_MS} ms); used only by the call that starts the pass.
   * @returns a promise of the rule; it never rejects.
   */
  async ruleFor(skillsFolder: string, pacer?: Pacer): Promise<HoldRule> {
    await (this.pass ??= this.readEntries(pacer));
    return (path) => this.holds(path, skillsFolder);
  }

  /**
   * True when a write changing the vault path `path` (file or folder, existing or not) changes
   * agent instructions: an instruction path by name or place ({@link isAgentInstructionPath}), at
   * or below a place a symbolic link makes an instruction place, where a trusted link out of the
   * vault leads to the place another leads the skills folder or an instruction file to (the same
   * files under another path: {@link InstructionPlacesPolicy.sharesOutsidePlace}), or a file on disk
   * that is also an instruction file (a hard link). Case and Unicode form are ignored, as isAgentInstructionPath ignores them.
   * @param path a normalized vault path. @param skillsFolder the skills folder's vault path.
   */
  holds(path: string, skillsFolder: string): boolean {
    if (path === '') return false;
    if (isAgentInstructionPath(path, skillsFolder)) return true;
    const known = this.knownFor(skillsFolder);
    if (known.targets.some((target) => isPathInside(path, target, true))) return true;
    // Two trusted links out of the vault may reach one place: the skills folder's, an instruction file's.
    if (this.policy.sharesOutsidePlace(path, [skillsFolder, ...known.named])) return true;
    return this.isHardLinkOfInstructions(path, known);
  }

  /**
   * The pass over the vault's entries, or what is left of it ({@link unvisited}): adds the
   * entries named like an instruction file to {@link named}, starting it (empty, with the vault's
   * root to read) the first time. With `pacer`, looks at it every {@link ENTRIES_PER_CLOCK_LOOK}
   * entries and awaits its pause when due; without one, reads all that is left before it returns.
   * @returns a promise that resolves when no entry is left to read.
   */
  private async readEntries(pacer?: Pacer): Promise<void> {
    if (this.named === undefined) {
      this.named = new Set();
      this.unvisited = [this.app.vault.getRoot()];
    }
    for (let read = 1; this.unvisited.length > 0; read++) {
      const entry = this.unvisited.pop() as TAbstractFile;
      if (hasInstructionName(entry.name)) this.named.add(entry.path);
      if (entry instanceof TFolder) for (const child of entry.children) this.unvisited.push(child);
      if (read % ENTRIES_PER_CLOCK_LOOK === 0 && pacer?.due()) await pacer.pause();
    }
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
   * ({@link named}) and the skills folder's tree; it costs as many entries as those (a folder
   * renamed or deleted no longer costs a pass over a 100k-note vault before the next force write:
   * docs/limits.md). When the pass over the vault's entries is not done ({@link ruleFor} waits
   * for it; a direct call of {@link holds} need not), the rest of it is read now, in one go (a
   * {@link readEntries} without a pacer returns having read all): an answer from part of the
   * entries could let a write to agent instructions through.
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
    void this.readEntries();
    const found = this.named as Set<string>;
    for (const path of found) {
      const entry = this.app.vault.getAbstractFileByPath(path);
      if (entry?.path !== path) {
        found.delete(path);
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
