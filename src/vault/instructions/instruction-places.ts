import { homedir } from 'node:os';
import { TFile, TFolder, type App, type EventRef, type Stat, type TAbstractFile } from 'obsidian';
import { foldPath, isPathInside, parentOf } from '../paths/paths';
import { touchesSkills } from '../skills-folder';
import type { HoldRule } from '../writes/write-types';
import { hasInstructionName, importsInstructions, isAgentInstructionPath } from './agent-instructions';
import { importPathsIn, MAX_IMPORT_HOPS, MAX_IMPORTING_FILE_BYTES } from './instruction-imports';

/** What {@link InstructionPlaces} asks of the vault's path policy (NotePolicy). */
export interface InstructionPlacesPolicy {
  /** The vault path an entry really lies at when a symbolic link inside the vault leads there, else null (NotePolicy.realPathOf). */
  realPathOf(path: string): string | null;
  /** The vault path a symbolic link at `path` names, even when nothing is there (NotePolicy.linkTargetOf). */
  linkTargetOf(path: string): string | null;
  /** The vault path an entry Obsidian does not list (a `.claude` file) really lies at, resolved on disk now; null when where its path says, outside or dangling (NotePolicy.vaultPathOnDisk). */
  vaultPathOnDisk(path: string): string | null;
  /** Whatever occupies a path, ignoring case and Unicode form (NotePolicy.entryAt). */
  entryAt(path: string): TAbstractFile | null;
  /** The disk file behind a path: device-and-inode id and link count (NotePolicy.fileOf). */
  fileOf(path: string): { id: string; links: number } | null;
  /** True when trusted links lead a path out of the vault to where one of `places` (or a trusted link in one) lies too (NotePolicy.sharesOutsidePlace). */
  sharesOutsidePlace(path: string, places: readonly string[]): boolean;
  /** The vault path `input` names by the lexical rules alone, an absolute path inside the vault read as the path below it (NotePolicy.literalPath); throws for one outside it or leaving it. */
  literalPath(input: string): string;
}

/** What {@link InstructionPlaces} keeps of one file whose imports it read: its import paths as written, while its size and modification time stay. */
interface ReadImports {
  mtime: number;
  size: number;
  /** instruction-imports.ts importPathsIn of its text. */
  spellings: string[];
  /** The vault paths those name from the folders `from` (its own, and the one it really lies in), once resolved. */
  resolved?: { from: string; paths: string[] };
}

/**
 * The project memory files Claude Code loads from the vault root's `.claude` folder when it runs
 * there: `.claude/CLAUDE.md` ("Project memory: `./CLAUDE.md` or `./.claude/CLAUDE.md`") and every
 * `.md` file below `.claude/rules/` ("All `.md` files are discovered recursively"), both expanding
 * `@path` imports like a `CLAUDE.md` (code.claude.com, Claude Code "Manage Claude's memory"). Obsidian
 * lists no dot-folder and reports no event for one, so {@link InstructionPlaces} reads them from
 * disk through the vault's adapter and looks at them again at each force write.
 */
export const CLAUDE_DOT_MEMORY = '.claude/CLAUDE.md';
/** The folder of Claude Code's project rules below the vault root ({@link CLAUDE_DOT_MEMORY}); read recursively. */
export const CLAUDE_RULES_FOLDER = '.claude/rules';
/** The vault root's `.claude` folder, which holds {@link CLAUDE_DOT_MEMORY} and {@link CLAUDE_RULES_FOLDER}. */
const CLAUDE_FOLDER = '.claude';
/**
 * The most files below {@link CLAUDE_RULES_FOLDER} read for imports (the first in name order,
 * folder by folder, breadth first): each is looked at (one `stat`) at every force write, so this
 * bounds that cost. Claude Code sets no limit; a project's rules are a few dozen files at most.
 */
export const MAX_RULE_FILES = 64;
/** The most folders of {@link CLAUDE_RULES_FOLDER} listed (itself first): bounds a deep tree or a link that loops back into it. */
export const MAX_RULE_FOLDERS = 16;

/**
 * What a `stat` of a path tells {@link InstructionPlaces}' look at the disk at each force write:
 * nothing there (`-`), a file's size and modification time, a folder (with its modification time
 * when `folderTime`: a rules folder, whose time changes when an entry is added, removed or renamed
 * in it).
 */
function signature(stat: Stat | null, folderTime: boolean): string {
  if (stat === null) return '-';
  if (stat.type === 'file') return `f${stat.size}:${stat.mtime}`;
  return folderTime ? `D${stat.mtime}` : 'd';
}

/** What {@link InstructionPlaces} records of where a `.claude` path leads ({@link InstructionPlaces.leadOf}): `-` nowhere else, else `>` and the vault path. */
function leadSignature(to: string | null): string {
  return to === null ? '-' : `>${to}`;
}

/** A Windows drive or UNC path (`C:\…`, `\\server\…`): absolute, as a leading `/` is. */
const WINDOWS_ABSOLUTE = /^(?:[a-zA-Z]:[\\/]|\\\\)/;

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
 * And the files an instruction file imports (`@conventions.md` in a `CLAUDE.md`, `GEMINI.md` or
 * `QWEN.md`: agent-instructions.ts importsInstructions, instruction-imports.ts; or in Claude Code's
 * `.claude/CLAUDE.md` and `.claude/rules/**.md` at the vault root, {@link CLAUDE_DOT_MEMORY}, which
 * no tool reaches but whose imports may be notes): the agent loads them as instructions, so they
 * are held like the file itself, and so are the files those import, up to {@link MAX_IMPORT_HOPS}
 * imports deep, whether or not they exist yet. Only those files are read, each once until its size
 * or modification time changes ({@link importedPlaces}), when a force write asks for the rule
 * ({@link ruleFor}); the instruction files and the dot-folder ones are looked at on disk at each
 * force write ({@link diskSeen}), since no event comes for a dot-folder and one may come late.
 *
 * The link targets come from the entries named like an instruction file and the skills folder's
 * tree, kept until the vault reports a create, delete or rename that may change them (a path by an
 * instruction name, in or around the skills folder, at or around a known target, or any folder
 * deleted or renamed) or the skills folder setting changes: an ordinary force write costs a few
 * string comparisons, one `stat` of its note, and one `stat` of each importing instruction file,
 * dot-folder memory file and rules folder (two when there are none), and one `realpath` of
 * `.claude` and of each of those dot-folder paths (three when there are none): where a link
 * there leads into the vault, that place is held ({@link dotMemoryFiles}). The named entries are found
 * once by a pass over every entry of the vault, started by the first force write's
 * {@link ruleFor} in slices that yield to the UI (the write gate's Slicer,
 * {@link INSTRUCTION_PASS_SLICE_MS}); that write, and any other made before the pass ends, waits
 * for it, so none is let through on a partial list. They
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
  /** Vault paths the instruction files import (and where a link among them really lies), as of the last {@link ruleFor}. */
  private imported: string[] = [];
  /** {@link imported} folded ({@link foldPath}), for {@link holds}' comparison. */
  private importedFolded: string[] = [];
  /**
   * What the last finding of {@link imported} looked at, folded ({@link foldPath}): the files it
   * read and the paths it holds. Null when a change in the vault may have changed it (an
   * instruction file that imports, or one of these, created, changed, moved or deleted; any
   * folder moved or deleted): the next {@link ruleFor} finds the imports again.
   */
  private importsFound: Set<string> | null = null;
  /** Counts the changes that dropped {@link importsFound}: a finding that a change overtook is not kept. */
  private importChanges = 0;
  /** The import paths of each file read for them, by vault path ({@link importedPlaces}); only the files of the last finding are kept. */
  private readImports = new Map<string, ReadImports>();
  /**
   * What the last finding of {@link imported} saw on disk ({@link signature}), by vault path: each
   * file it looked at for imports (there or not), and the rules folders it listed. {@link ruleFor}
   * looks at them again before it trusts {@link importsFound}: no vault event comes for a dot-folder,
   * and a change on disk may come before its event.
   */
  private diskSeen = new Map<string, string>();
  /**
   * Where the last finding saw `.claude`, its memory file, each rules folder and each rules file
   * lead on disk ({@link leadOf}, as {@link leadSignature}), by their dot path: {@link ruleFor}
   * resolves them again before it trusts {@link importsFound}, so a link made or re-pointed there
   * (no vault event comes for a dot-folder) counts at the next force write.
   */
  private leadsSeen = new Map<string, string>();
  /** The dot-folder memory files ({@link CLAUDE_DOT_MEMORY}, rules) the last finding read, for the link checks of {@link holds}. */
  private dotMemory: string[] = [];
  private readonly refs: EventRef[] = [];

  /** @param app the Obsidian app (vault entries and events). @param policy the vault's path policy (links, disk files). */
  constructor(
    private readonly app: App,
    private readonly policy: InstructionPlacesPolicy,
  ) {
    const changed = (file: TAbstractFile, oldPath?: string): void => {
      if (hasInstructionName(file.name)) this.named?.add(file.path);
      this.mayChangeImports(file, oldPath);
      if (this.known === null) return;
      const folderGone = file instanceof TFolder && oldPath !== undefined;
      if (folderGone || this.touches(file.path) || (oldPath !== undefined && this.touches(oldPath))) this.known = null;
    };
    const deleted = (file: TAbstractFile): void => {
      if (file instanceof TFolder) {
        this.known = null;
        this.mayChangeImports(file, file.path);
      } else changed(file);
    };
    this.refs.push(
      app.vault.on('create', (file) => changed(file)),
      app.vault.on('delete', deleted),
      app.vault.on('rename', changed),
      app.vault.on('modify', (file) => this.mayChangeImports(file)),
    );
  }

  /** Stops following vault events; call when the plugin unloads. */
  close(): void {
    for (const ref of this.refs) this.app.vault.offref(ref);
    this.refs.length = 0;
  }

  /**
   * The hold rule of a force key's writes (NoteWriter.apply): {@link holds} for `skillsFolder`,
   * once the pass over the vault's entries is done and the files instruction files import are
   * found ({@link importedPlaces}; kept until a vault event may change them). The first call
   * starts that pass, in slices that yield through `pacer` (without one, in one go); every call
   * made before it ends waits for it, so the rule answers in a few comparisons, never blocks the
   * UI for a pass, and never holds less because the pass was not done.
   * @param skillsFolder the skills folder's vault path (skillsFolderOf).
   * @param pacer what the pass yields to the UI through (a search/engine Slicer of
   *   {@link INSTRUCTION_PASS_SLICE_MS} ms); used only by the call that starts the pass.
   * @returns a promise of the rule; it never rejects.
   */
  async ruleFor(skillsFolder: string, pacer?: Pacer): Promise<HoldRule> {
    await (this.pass ??= this.readEntries(pacer));
    if (this.importsFound !== null && !(await this.sameOnDisk())) {
      this.importsFound = null;
      this.importChanges++;
    }
    if (this.importsFound === null) {
      const changes = this.importChanges;
      const { held, looked, seen, leads, memory } = await this.importedPlaces(this.knownFor(skillsFolder).named);
      this.imported = held;
      this.importedFolded = held.map(foldPath);
      this.dotMemory = memory;
      this.diskSeen = seen;
      this.leadsSeen = leads;
      if (changes === this.importChanges) this.importsFound = looked;
    }
    return (path) => this.holds(path, skillsFolder);
  }

  /**
   * True when every path the last finding looked at on disk ({@link diskSeen}) is as it was: one
   * `stat` each, all at once (the instruction files that import, the imported files Obsidian does
   * not list, the dot-folder memory files and rules folders; two when the vault has none); and
   * `.claude`, its memory file and its rules folders and files lead where they led ({@link leadsSeen}:
   * one `realpath` each, at most 2 × {@link MAX_RULE_FILES} + {@link MAX_RULE_FOLDERS} + 2).
   */
  private async sameOnDisk(): Promise<boolean> {
    for (const [path, was] of this.leadsSeen) if (leadSignature(this.leadOf(path)) !== was) return false;
    const adapter = this.app.vault.adapter;
    const seen = [...this.diskSeen];
    const now = await Promise.all(
      seen.map(([path, was]) =>
        adapter.stat(path).then(
          (stat) => signature(stat, was.startsWith('D')),
          () => '-',
        ),
      ),
    );
    return seen.every(([, was], i) => now[i] === was);
  }

  /**
   * Drops what {@link importedPlaces} found when the vault event for `file` (at `oldPath` before a
   * rename; a deleted folder passes its own path) may change it: a folder moved or deleted, a file
   * that imports by its name, or a path the finding read or holds ({@link importsFound}). While
   * nothing is kept (a finding may be under way), every event counts, so a finding it overtook is
   * not kept.
   */
  private mayChangeImports(file: TAbstractFile, oldPath?: string): void {
    const found = this.importsFound;
    const touched = (path: string): boolean => importsInstructions(path) || found?.has(foldPath(path)) === true;
    if (
      found !== null &&
      !(file instanceof TFolder && oldPath !== undefined) &&
      !touched(file.path) &&
      !(oldPath !== undefined && touched(oldPath))
    )
      return;
    this.importsFound = null;
    this.importChanges++;
  }

  /**
   * True when a write changing the vault path `path` (file or folder, existing or not) changes
   * agent instructions: an instruction path by name or place ({@link isAgentInstructionPath}), at
   * or below a place a symbolic link makes an instruction place, where a trusted link out of the
   * vault leads to the place another leads the skills folder or an instruction file to (the same
   * files under another path: {@link InstructionPlacesPolicy.sharesOutsidePlace}), or a file on disk
   * that is also an instruction file (a hard link), or at or below a file an instruction file imports
   * (as found by the last {@link ruleFor}). Case and Unicode form are ignored, as isAgentInstructionPath ignores them.
   * @param path a normalized vault path. @param skillsFolder the skills folder's vault path.
   */
  holds(path: string, skillsFolder: string): boolean {
    if (path === '') return false;
    if (isAgentInstructionPath(path, skillsFolder)) return true;
    const known = this.knownFor(skillsFolder);
    if (known.targets.some((target) => isPathInside(path, target, true))) return true;
    if (this.importedFolded.length > 0) {
      const folded = foldPath(path);
      if (this.importedFolded.some((place) => isPathInside(folded, place))) return true;
    }
    // Two trusted links out of the vault may reach one place: the skills folder's, an instruction file's.
    if (this.policy.sharesOutsidePlace(path, [skillsFolder, ...known.named, ...this.dotMemory, ...this.imported])) return true;
    return this.isHardLinkOfInstructions(path, known);
  }

  /**
   * The vault paths the instruction files among `named` import ({@link importsInstructions}), and
   * the dot-folder memory files ({@link dotMemoryFiles}), and those import, up to
   * {@link MAX_IMPORT_HOPS} imports from the instruction file, each also where it really lies when
   * a symbolic link inside the vault leads there. A file is read only when it is new to
   * {@link readImports} or its size or modification time on disk changed, and only when it is at
   * most {@link MAX_IMPORTING_FILE_BYTES} (Claude Code skips a larger one); a file that cannot be
   * read imports nothing.
   * And the vault places the dot-folder memory files, the rules folders and `.claude` itself lead
   * to through symbolic links ({@link dotMemoryFiles}): Claude Code reads through them.
   * @param named vault paths of the files named like an instruction file (KnownPlaces.named).
   * @returns `held`: the imported vault paths, existing or not (an import names where a file will
   *   be read from), and the places those links lead to; `looked`: those and the files read, folded
   *   ({@link importsFound}); `seen`: what the disk showed of each path looked at ({@link diskSeen});
   *   `leads`: where the `.claude` paths led ({@link leadsSeen}); `memory`: the dot-folder memory files read.
   */
  private async importedPlaces(
    named: readonly string[],
  ): Promise<{ held: string[]; looked: Set<string>; seen: Map<string, string>; leads: Map<string, string>; memory: string[] }> {
    const held = new Set<string>();
    const expanded = new Set<string>();
    const kept = new Map<string, ReadImports>();
    const seen = new Map<string, string>();
    const leads = new Map<string, string>();
    const { files: memory, places, realOf } = await this.dotMemoryFiles(seen, leads);
    let layer = [...named.filter((path) => importsInstructions(path)), ...memory];
    for (let hop = 1; hop <= MAX_IMPORT_HOPS && layer.length > 0; hop++) {
      const next: string[] = [];
      const fresh = layer.filter((path) => {
        const folded = foldPath(path);
        if (expanded.has(folded)) return false;
        expanded.add(folded);
        return true;
      });
      // One layer's files are looked at together: each may wait on the disk.
      const found = await Promise.all(fresh.map((path) => this.importsOf(path, kept, seen, hop === 1, realOf.get(path))));
      for (const targets of found) {
        for (const target of targets) {
          if (held.has(target)) continue;
          held.add(target);
          next.push(target);
          // A listed link whose target is gone names where it would be recreated (no entry: no link to read).
          const real = this.policy.realPathOf(target) ?? (this.policy.entryAt(target) === null ? null : this.policy.linkTargetOf(target));
          if (real === null || held.has(real)) continue;
          held.add(real);
          next.push(real);
        }
      }
      layer = next;
    }
    for (const place of places) held.add(place);
    this.readImports = kept;
    const looked = new Set([...held, ...kept.keys()].map(foldPath));
    const read = memory.filter((path) => kept.has(path));
    return { held: [...held], looked, seen, leads, memory: read };
  }

  /**
   * Where the entry at the vault path `path` (one Obsidian does not list: `.claude` and what is
   * below it) leads on disk now: the vault path it really lies at through symbolic links
   * (InstructionPlacesPolicy.vaultPathOnDisk), else, for a dangling link, the vault path it names
   * (where a file created there would be read through it); null when it lies where its path says
   * or leads out of the vault.
   */
  private leadOf(path: string): string | null {
    return this.policy.vaultPathOnDisk(path) ?? this.policy.linkTargetOf(path);
  }

  /**
   * The dot-folder memory files Claude Code loads when run in the vault's folder:
   * {@link CLAUDE_DOT_MEMORY} and the `.md` files below {@link CLAUDE_RULES_FOLDER}, found by listing
   * it on disk (the vault's adapter: Obsidian lists no dot-folder), breadth first in name order, up
   * to {@link MAX_RULE_FOLDERS} folders and {@link MAX_RULE_FILES} files; a folder that cannot be
   * listed adds nothing. A `.claude` that is a link out of the vault is read through, as
   * Claude Code reads it: only the vault paths its files import are held, nothing of it is served.
   * Where `.claude`, the memory file, a rules folder or a rules file is a symbolic link (or lies
   * below one) into the vault ({@link leadOf}), Claude Code reads the vault's own notes there as
   * memory and rules (its docs: `.claude/rules/` supports file and folder links), so that vault
   * place is held: a file itself, a rules folder with everything below it (a note created there is
   * a new rule), and for `.claude` itself its `CLAUDE.md` and `rules` (whether or not they exist);
   * a dangling link names where its target would be made (up to {@link MAX_RULE_FILES} entries
   * not named `.md` are looked at for one).
   * Records each rules folder's {@link signature} in `seen` (the files are recorded as
   * {@link importsOf} reads them), and where each of those paths leads in `leads` ({@link leadSignature}).
   * @returns `files`: vault paths, existing or not ({@link CLAUDE_DOT_MEMORY} always); `places`:
   *   the vault places the links lead to; `realOf`: each file's place, for the folder its imports
   *   resolve from.
   */
  private async dotMemoryFiles(
    seen: Map<string, string>,
    leads: Map<string, string>,
  ): Promise<{ files: string[]; places: string[]; realOf: Map<string, string> }> {
    const adapter = this.app.vault.adapter;
    const places: string[] = [];
    const realOf = new Map<string, string>();
    /** Records where `path` leads and returns it (a vault path), or null. */
    const lead = (path: string): string | null => {
      const to = this.leadOf(path);
      leads.set(path, leadSignature(to));
      return to;
    };
    const dot = lead(CLAUDE_FOLDER);
    if (dot !== null)
      places.push(
        ...[CLAUDE_DOT_MEMORY, CLAUDE_RULES_FOLDER].map((path) => (dot === '' ? '' : `${dot}/`) + path.slice(CLAUDE_FOLDER.length + 1)),
      );
    const files = [CLAUDE_DOT_MEMORY];
    const folders = [CLAUDE_RULES_FOLDER];
    const other: string[] = [];
    for (let listed = 0; folders.length > 0 && listed < MAX_RULE_FOLDERS && files.length <= MAX_RULE_FILES; listed++) {
      const folder = folders.shift() as string;
      const to = lead(folder);
      if (to !== null) places.push(to);
      const stat = await adapter.stat(folder).catch(() => null);
      seen.set(folder, signature(stat, true));
      if (stat?.type !== 'folder') continue;
      const listing = await adapter.list(folder).catch(() => ({ files: [], folders: [] }));
      // In name order (UTF-16 code units), whatever order the disk lists them in.
      for (const path of [...listing.files].sort())
        if (path.toLowerCase().endsWith('.md')) {
          if (files.length <= MAX_RULE_FILES) files.push(path);
        } else if (other.length < MAX_RULE_FILES) other.push(path);
      folders.push(...[...listing.folders].sort());
    }
    // A dangling link not named like a rule (`gone → ../../Gone`) is listed as a file: once its target
    // exists it may be a rules folder, so where it leads is held (one `stat` each; a plain file leads nowhere).
    for (const path of other) {
      const to = lead(path);
      if (to !== null && (await adapter.stat(path).catch(() => null)) === null) places.push(to);
    }
    for (const file of files) {
      const to = lead(file);
      if (to === null) continue;
      places.push(to);
      realOf.set(file, to);
    }
    return { files, places, realOf };
  }

  /**
   * The vault paths the file at `path` imports, resolved from its folder and, when a link inside
   * the vault leads it elsewhere, from the folder it really lies in (Claude Code resolves from the
   * real folder); an import outside the vault (`~/…`, an absolute path elsewhere, `../` above the
   * root) names nothing here. Keeps what it read of the file in `kept`. An instruction file itself
   * (`watch`), and a path Obsidian does not list (a dot-folder's file, or one not loaded yet: no
   * vault event will come for it), is looked at on disk (the vault's adapter's `stat` and `read`,
   * not Obsidian's cache: a change on disk may come before its event) and what the disk showed
   * recorded in `seen` ({@link signature}, {@link diskSeen}); the files they import that Obsidian
   * lists are read as Obsidian has them and followed by vault events. `lies` is the vault path a
   * file Obsidian does not list really lies at ({@link leadOf}), which policy.realPathOf does not know.
   */
  private async importsOf(
    path: string,
    kept: Map<string, ReadImports>,
    seen: Map<string, string>,
    watch: boolean,
    lies?: string,
  ): Promise<string[]> {
    const entry = this.policy.entryAt(path);
    if (entry instanceof TFolder) return [];
    const at = entry?.path ?? path;
    const adapter = this.app.vault.adapter;
    const file = entry instanceof TFile && !watch ? entry : null;
    let stat: { size: number; mtime: number };
    if (file !== null) stat = file.stat;
    else {
      const onDisk = await adapter.stat(at).catch(() => null);
      seen.set(at, signature(onDisk, false));
      if (onDisk?.type !== 'file') return [];
      stat = onDisk;
    }
    if (stat.size > MAX_IMPORTING_FILE_BYTES) return [];
    let read = kept.get(at) ?? this.readImports.get(at);
    if (read === undefined || read.mtime !== stat.mtime || read.size !== stat.size) {
      let text: string;
      try {
        text = file === null ? await adapter.read(at) : await this.app.vault.cachedRead(file);
      } catch {
        return [];
      }
      read = { mtime: stat.mtime, size: stat.size, spellings: importPathsIn(text) };
    }
    kept.set(at, read);
    const folders = new Set([parentOf(at)]);
    const real = lies ?? this.policy.realPathOf(at);
    if (real !== null) folders.add(parentOf(real));
    const from = [...folders].join('\u0000');
    if (read.resolved?.from !== from) {
      const found = new Set<string>();
      for (const spelling of read.spellings)
        for (const folder of folders) {
          const target = this.resolveImport(spelling, folder);
          if (target !== null) found.add(target);
        }
      read.resolved = { from, paths: [...found] };
    }
    return read.resolved.paths;
  }

  /**
   * The vault path an import names from a file in `folder`: relative to that folder, or an
   * absolute path (`~/` is the home folder) read as the path below the vault's folder.
   * @returns null when it names a place outside the vault or no valid path.
   */
  private resolveImport(spelling: string, folder: string): string | null {
    let input = folder === '' ? spelling : `${folder}/${spelling}`;
    if (spelling.startsWith('~/')) input = `${homedir()}${spelling.slice(1)}`;
    else if (spelling.startsWith('/') || WINDOWS_ABSOLUTE.test(spelling)) input = spelling;
    try {
      const path = this.policy.literalPath(input);
      return path === '' ? null : path;
    } catch {
      return null;
    }
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
   * (device and inode) as an instruction file: a named one, one in the skills folder, at a link's
   * target or imported. One `stat` of the note; the instruction files are stat'ed only for such a note.
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
    for (const target of [...known.targets, ...this.imported]) collect(this.policy.entryAt(target));
    candidates.push(...this.dotMemory);
    return candidates.some((candidate) => candidate !== path && this.policy.fileOf(candidate)?.id === file.id);
  }
}
