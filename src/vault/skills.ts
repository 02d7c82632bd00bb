import { TFile, TFolder } from 'obsidian';
import { quoteInput, ToolError } from '../errors';
import type { AccessScope } from './access/access';
import { bodyStart } from './content/note-body';
import { assertPathInput, foldPath, isPathInside, rootsShown } from './paths/paths';
import { parseFrontmatter } from './writes/frontmatter/frontmatter-guard';
import type { NoteStore } from './note-store';

/** A `file` spelling that names a place outside any folder: a leading slash, a drive (`C:`), a URL (`file://`), a home (`~/`). */
const OUTSIDE_SPELLING = /^(?:[\\/]|[a-zA-Z]:|[a-zA-Z][a-zA-Z0-9+.-]*:\/\/|~[\\/])/;

/** The file that makes a folder a skill (Agent Skills layout: `<skills folder>/<name>/SKILL.md`). */
export const SKILL_FILE = 'SKILL.md';

/** One skill as `skills_list` shows it. `name`/`description` are null and `error` says why when the frontmatter is malformed. */
export interface SkillEntry {
  /** The skill's folder name: what `skill_read` and prompts/get take. */
  id: string;
  /** Frontmatter `name`, or null when missing or not a string. */
  name: string | null;
  /** Frontmatter `description`, or null when missing or not a string. */
  description: string | null;
  /** Vault path of its SKILL.md. */
  path: string;
  /** Why the skill cannot be used as is (one sentence naming the fix), or null. */
  error: string | null;
}

/** A whole skill: its entry, SKILL.md's text and body, and the other files of its folder. */
export interface SkillText extends SkillEntry {
  /** SKILL.md's whole text, frontmatter included. */
  text: string;
  /** SKILL.md's text after the frontmatter. */
  body: string;
  /** Vault paths of the other files in the skill's folder (scripts, references) the caller may read, sorted. */
  files: string[];
}

/** One file of a skill as `skill_read {id, file}` gives it: the skill's id, the file's vault path, size and whole text. */
export interface SkillFileText {
  /** The skill's id (its folder name). */
  id: string;
  /** The file's vault path, as `files` lists it. */
  path: string;
  /** The file's size on disk, bytes. */
  size: number;
  /** The file's whole text (UTF-8 decoded; a note's as Obsidian has it). */
  text: string;
}

/**
 * Most bytes of one skill file `skill_read` reads (5 MiB): a larger one is refused before it is
 * read, so a video or data dump in a skill's folder is never loaded to be paged 8000 chars at a time.
 */
export const SKILL_FILE_MAX_BYTES = 5 * 1024 * 1024;

/**
 * The frontmatter verdict on one SKILL.md text (Agent Skills: YAML frontmatter with string
 * `name` and `description`).
 * @returns name, description and, when either is missing or the block does not parse, an error sentence.
 */
export function judgeSkillText(text: string): Pick<SkillEntry, 'name' | 'description' | 'error'> {
  const parsed = parseFrontmatter(text);
  if (parsed.state === 'none') {
    return {
      name: null,
      description: null,
      error: 'SKILL.md has no frontmatter; start it with a --- block holding name: and description:.',
    };
  }
  if (parsed.state === 'invalid') {
    return {
      name: null,
      description: null,
      error: `SKILL.md frontmatter does not parse (${parsed.error}); fix the YAML between the --- lines.`,
    };
  }
  const field = (key: string): string | null => {
    const value = parsed.data[key];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
  };
  const name = field('name');
  const description = field('description');
  const missing = [name === null ? 'name' : null, description === null ? 'description' : null].filter(Boolean);
  const error = missing.length
    ? `SKILL.md frontmatter needs a text ${missing.join(' and a text ')}; add ${missing.map((m) => `${m}:`).join(' and ')} to it.`
    : null;
  return { name, description, error };
}

/**
 * The skills of a vault (Agent Skills layout): every `<folder>/<name>/SKILL.md` the caller may
 * read (quarantine, key roots and access rules apply as to any note). Reads through
 * {@link NoteStore}, the only code touching the vault.
 */
export class SkillCatalog {
  /** @param notes the note store. */
  constructor(private readonly notes: NoteStore) {}

  /**
   * Every skill under `folder` that `scope` may read, by id; malformed ones are listed with
   * `error`, not hidden. One whose SKILL.md leads elsewhere on disk at the read is left out, as a missing one.
   * @param folder the skills folder (skills-folder.ts skillsFolderOf).
   */
  async list(folder: string, scope: AccessScope): Promise<SkillEntry[]> {
    const files = this.skillFiles(folder, scope);
    // A SKILL.md whose text `scope` may not read (NoteStore.read) is left out, as a private one is.
    const texts = await Promise.all(files.map(({ file }) => this.notes.read(file, scope)));
    const out: SkillEntry[] = [];
    files.forEach(({ id, file }, i) => {
      const text = texts[i];
      if (text !== null) out.push({ id, path: file.path, ...judgeSkillText(text) });
    });
    return out;
  }

  /**
   * Checks that `scope` may use the skills folder at all, as widget_list checks the widgets
   * folder (NotePolicy.widgetsFolderFor): the folder is not quarantined (a link out of the
   * vault included) and lies inside `scope.roots` (key and client roots), or one of the roots
   * lies inside it.
   * @throws ToolError('forbidden'), one sentence saying which rule closes it.
   */
  assertFolderOpen(folder: string, scope: AccessScope): void {
    if (this.notes.policy.isQuarantined(folder)) {
      throw new ToolError(
        'forbidden',
        `The skills folder '${folder}' is in a folder agents may not access; the user can choose another skills folder in the settings.`,
      );
    }
    if (!this.notes.policy.isWithinRoots(folder, scope.roots) && !scope.roots.some((root) => isPathInside(root, folder))) {
      throw new ToolError(
        'forbidden',
        `The skills folder '${folder}' is outside the folders this key may use (${rootsShown(scope.roots)}); skills need a key whose roots include it.`,
      );
    }
  }

  /**
   * One whole skill.
   * @throws ToolError('forbidden') as {@link assertFolderOpen}; ToolError('not_found') naming
   *   skills_list when `id` names no skill `scope` may read (a SKILL.md whose path leads elsewhere
   *   on disk at the read, NoteStore.read, answers the same).
   */
  async read(folder: string, id: string, scope: AccessScope): Promise<SkillText> {
    // A SKILL.md whose text `scope` may not read (NoteStore.read) now counts as private: the skill is looked up again without it.
    let found = this.find(folder, id, scope);
    let text = await this.notes.read(found.file, scope);
    for (let attempt = 1; text === null; attempt++) {
      if (attempt >= READ_ATTEMPTS) throw noSkill(folder, id);
      found = this.find(folder, id, scope);
      text = await this.notes.read(found.file, scope);
    }
    const files = this.otherFiles(found.file, scope).map((file) => file.path);
    return { id: found.id, path: found.file.path, ...judgeSkillText(text), text, body: text.slice(bodyStart(text)), files: files.sort() };
  }

  /**
   * One file of a skill (Agent Skills: scripts, references and assets beside SKILL.md, read when
   * needed): only a file {@link read} lists in `files` (or SKILL.md itself), so the rules that
   * decide that list decide this too: the skill must be one `scope` may read, and the file must be
   * readable by `scope` on its own (not quarantined, below no link out of the vault, inside the
   * key's and client's roots, and for a note its own access rules; a link judged as the path it
   * really leads to, a Markdown note there by that note's rules, and a file with more than one hard
   * link never read: NotePolicy.canReadWhereItLies). Nothing outside the skill's
   * folder is ever reached: `file` is matched against that list, never opened as a path.
   * @param file the file's path relative to the skill's folder (`run.sh`, `scripts/run.sh`) or
   *   its vault path as `files` lists it; exact spelling first, then ignoring case and Unicode
   *   form ({@link foldPath}) when that names one file.
   * @throws as {@link read}; ToolError('invalid_argument') for an empty `file`, one with a `..`
   *   segment, an absolute path or URL, a file over {@link SKILL_FILE_MAX_BYTES}, or one that is not UTF-8
   *   text; ToolError('ambiguous') when a spelling ignoring case names several files;
   *   ToolError('not_found') when no such file is listed (a hidden one answers the same, and so
   *   does one whose path leads elsewhere on disk at the read: NoteStore.readText).
   */
  async readFile(folder: string, id: string, file: string, scope: AccessScope): Promise<SkillFileText> {
    const found = this.find(folder, id, scope);
    let target = this.fileIn(found, file, scope);
    let text = await this.textOf(target, scope);
    // A note whose text `scope` may not read (NoteStore.readText) now counts as private: the file is looked up again without it.
    for (let attempt = 1; text === undefined; attempt++) {
      if (attempt >= READ_ATTEMPTS) throw noSkillFile(file, found.id);
      target = this.fileIn(this.find(folder, id, scope), file, scope);
      text = await this.textOf(target, scope);
    }
    if (text === null) {
      throw new ToolError(
        'invalid_argument',
        `'${target.path}' is not a text file (it is not UTF-8 or holds NUL bytes); skill_read reads only text files of a skill.`,
      );
    }
    return { id: found.id, path: target.path, size: target.stat.size, text };
  }

  /**
   * The text of a skill's file ({@link readFile}): NoteStore.readText for `scope`.
   * @returns the text; null when it is not text; undefined when it is a note whose text `scope` may not read.
   * @throws ToolError('invalid_argument') for a file over {@link SKILL_FILE_MAX_BYTES}.
   */
  private async textOf(target: TFile, scope: AccessScope): Promise<string | null | undefined> {
    if (target.stat.size > SKILL_FILE_MAX_BYTES) {
      throw new ToolError(
        'invalid_argument',
        `'${target.path}' is ${target.stat.size} bytes, more than the ${SKILL_FILE_MAX_BYTES} skill_read reads; ask the user for the part you need.`,
      );
    }
    return this.notes.readText(target, scope);
  }

  /**
   * The skill `id` names in `folder` for `scope` (exact name first, then ignoring case).
   * @throws as {@link read}.
   */
  private find(folder: string, id: string, scope: AccessScope): { id: string; file: TFile } {
    this.assertFolderOpen(folder, scope);
    const skills = this.skillFiles(folder, scope);
    const found = skills.find((s) => s.id === id) ?? skills.find((s) => foldPath(s.id) === foldPath(id));
    if (!found) throw noSkill(folder, id);
    return found;
  }

  /**
   * The files in `skillFile`'s folder and below it, SKILL.md aside, that `scope` may read where
   * they really lie (NotePolicy.canReadWhereItLies: a link's target judged as that path, a hard
   * link left out), in tree order.
   */
  private otherFiles(skillFile: TFile, scope: AccessScope): TFile[] {
    const files: TFile[] = [];
    const walk = (dir: TFolder): void => {
      for (const child of dir.children) {
        if (child instanceof TFolder) walk(child);
        else if (child instanceof TFile && child !== skillFile && this.notes.policy.canReadWhereItLies(child, scope)) files.push(child);
      }
    };
    if (skillFile.parent) walk(skillFile.parent);
    return files;
  }

  /**
   * The file of the skill `found` that `input` names among SKILL.md and {@link otherFiles} (see
   * {@link readFile}). @throws as {@link readFile}.
   */
  private fileIn(found: { id: string; file: TFile }, input: string, scope: AccessScope): TFile {
    if (input.trim() === '') throw new ToolError('invalid_argument', 'file is empty; give one of the paths skill_read lists in files.');
    assertPathInput(input);
    const segments = input.split(/[\\/]/);
    if (OUTSIDE_SPELLING.test(input) || segments.includes('..')) {
      throw new ToolError(
        'invalid_argument',
        `file ${quoteInput(input)} is not a path inside the skill's folder; give it as skill_read lists it in files, or relative to the skill's folder (e.g. 'scripts/run.sh'), without '..'.`,
      );
    }
    const path = segments
      .filter((segment) => segment !== '' && segment !== '.')
      .join('/')
      .normalize('NFC');
    const base = found.file.parent?.path ?? '';
    const candidates = [found.file, ...this.otherFiles(found.file, scope)];
    const names = (f: TFile): string[] => [f.path, f.path.slice(base.length + 1)];
    // A vault path before a relative one (`Skills/a/x` beside `Skills/a/Skills/a/x`).
    const exact = candidates.find((f) => f.path === path) ?? candidates.find((f) => names(f)[1] === path);
    if (exact) return exact;
    const folded = candidates.filter((f) => names(f).some((name) => foldPath(name) === foldPath(path)));
    if (folded.length === 1) return folded[0];
    if (folded.length > 1)
      throw new ToolError(
        'ambiguous',
        `file ${quoteInput(input)} names ${folded.map((f) => `'${f.path}'`).join(' and ')}; give one exactly as files lists it.`,
      );
    throw noSkillFile(input, found.id);
  }

  /** `<folder>/<id>/SKILL.md` files `scope` may read (exact name first, then ignoring case: foldPath), sorted by id. */
  private skillFiles(folder: string, scope: AccessScope): Array<{ id: string; file: TFile }> {
    const root = this.notes.folderAt(folder);
    if (!root) return [];
    const out: Array<{ id: string; file: TFile }> = [];
    for (const child of root.children) {
      if (!(child instanceof TFolder)) continue;
      const files = child.children.filter((c): c is TFile => c instanceof TFile);
      const file = files.find((f) => f.name === SKILL_FILE) ?? files.find((f) => foldPath(f.name) === foldPath(SKILL_FILE));
      if (file && this.notes.canRead(file, scope)) out.push({ id: child.name, file });
    }
    return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
}

/**
 * How many notes one skill read may find it must not serve (NoteStore.read: their rules newer than
 * the metadata the lookup judged) before it answers "not found": each refused one now counts as private.
 */
const READ_ATTEMPTS = 4;

/** The refusal of a skill id that names no skill `scope` may read (the same whether one is hidden there or not). */
function noSkill(folder: string, id: string): ToolError {
  return new ToolError('not_found', `No skill ${quoteInput(id)} in ${folder}/; call skills_list for the skill ids.`);
}

/** The refusal of a skill file that names none the skill lists (a hidden one answers the same). */
function noSkillFile(input: string, id: string): ToolError {
  return new ToolError('not_found', `No file ${quoteInput(input)} in skill '${id}'; call skill_read with id '${id}' for the files it has.`);
}
