/**
 * The files an instruction file imports: coding agents expand `@path` in the instruction files
 * they read, and load the imported file as instructions too. Claude Code: "CLAUDE.md files can
 * import additional files using @path/to/import syntax … Imported files can recursively import
 * additional files, with a max-depth of 5 hops", not inside Markdown code spans and code blocks
 * (docs.anthropic.com, Claude Code "Manage Claude's memory", "CLAUDE.md imports"); Gemini CLI's
 * `GEMINI.md` and Qwen Code's `QWEN.md` the same way with `@file.md`, relative to the importing
 * file, 5 levels deep by default (geminicli.com, "Memory Import Processor"). What Claude Code
 * takes as an import (its rule, as read from its code by others and written down): in each
 * Markdown text token, `/(?:^|\s)@((?:[^\s\\]|\\ )+)/`, the path cut at its first `#`, `\ `
 * unescaped, kept when it starts with `./`, `~/`, `/` (not `/` alone) or a letter, digit, `.`,
 * `_` or `-`, and resolved from the importing file's folder.
 */
import { trailingRunStart } from '../content/text/trailing-run';

/** How many imports deep a chain is followed from the instruction file (Claude Code: "max-depth of 5 hops"; Gemini CLI: 5 levels by default). */
export const MAX_IMPORT_HOPS = 5;

/**
 * The largest file whose imports are read, bytes: Claude Code reads a memory file only up to
 * 4 MiB (a larger one is skipped whole), and this bounds what one changed file costs.
 */
export const MAX_IMPORTING_FILE_BYTES = 4 * 1024 * 1024;

/**
 * An `@` that may start an import: at the start of the text or after anything but a letter or
 * digit. Claude Code matches only at the start of a Markdown text token or after whitespace, and
 * a text token may begin after any inline mark (`**@a.md**`, `[@a.md](x)`, a code span before
 * it); Markdown has no token that ends in a letter or digit before a text token, so an address
 * (`me@a.md`) never counts, in either reading.
 */
const IMPORT_START = /(?<![\p{L}\p{N}])@((?:[^\s\\]|\\ )+)/gu;

/**
 * The whole run of non-space characters after such an `@`: Gemini CLI's and Qwen Code's import
 * reader take the path up to the next space, a backslash included (`@docs\\rules.md`, a Windows
 * path), where Claude Code's rule ends it at the backslash. (A backslash ending the run escapes
 * the space after it, for Claude Code: {@link IMPORT_START} reads that path.)
 */
const IMPORT_RUN = /(?<![\p{L}\p{N}])@(\S+)/gu;

/**
 * Where a Markdown text token may end inside what {@link IMPORT_START} takes as one path: before
 * an emphasis mark, a link's brackets, a code span, an HTML tag or autolink, an image (a backslash
 * in a path is always an escaped space: {@link IMPORT_START} ends the path at any other).
 * `@a.md**` inside `**…**` imports `a.md`.
 */
const TOKEN_END = /[*_[\]`<!]/g;

/**
 * The characters Windows drops from a path's end when it opens a file (Win32 path normalization: "all
 * trailing periods and spaces are removed" from the last name, learn.microsoft.com, "File path
 * formats on Windows systems"): Claude Code on Windows takes `@rules.md.` (an import at the end
 * of a sentence) as `rules.md.` and so reads `rules.md`; {@link importPathsIn} gives both.
 */
const isWindowsDropped = (unit: string): boolean => unit === '.' || unit === ' ';

/** A line opening a fenced code block (CommonMark: up to 3 spaces, then 3 or more backticks with none in the info string, or tildes). */
const FENCE_OPEN = /^ {0,3}(`{3,}(?=[^`]*$)|~{3,})/;

/** What Claude Code takes as a path to import, once cut and unescaped: not an npm scope or a decoration (`@@x`, `@#x`). */
const IMPORTABLE = /^(?:\.\/|~\/|\/.|[a-zA-Z0-9._-])/;

/**
 * `text` without its fenced code blocks (their lines are left empty): what is inside a code block
 * is no import. A fence closes at a line of the same character at least as long, or at the end
 * (CommonMark, as marked, which Claude Code lexes with, reads it). A fence indented 4 spaces or
 * more (or in a list or quote) is not taken for one: its lines stay, the safe side.
 */
function withoutFencedCode(text: string): string {
  const lines = text.split(/\r\n|\r|\n/);
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (fence === null) {
      const open = FENCE_OPEN.exec(line);
      if (open === null) continue;
      fence = open[1];
      lines[i] = '';
      continue;
    }
    const trimmed = line.replace(/^ {0,3}/, '');
    if (trimmed.startsWith(fence) && new RegExp(`^\\${fence[0]}+[ \\t]*$`).test(trimmed)) fence = null;
    lines[i] = '';
  }
  return lines.join('\n');
}

/**
 * The paths `text` imports, as written (relative to the importing file's folder, or absolute, or
 * from the home folder `~/`), each once. Read as Claude Code reads them, on the safe side: every
 * path it would import is among them (and those Gemini CLI's reader takes, a path with a
 * backslash whole), and a few spellings it would not (an `@` inside an inline
 * code span, in front matter or an HTML comment, which it skips; the shorter path ending before an
 * inline mark that turns out not to end its text token) may be too. Those name files that are
 * rarely there; holding one costs nothing unless it is. A path ending in dots or spaces is given
 * also without them ({@link isWindowsDropped}: the file Windows opens for it; in linear time, trailing-run.ts).
 * @param text the importing file's text.
 * @returns the import paths, `#fragment` cut and `\ ` unescaped.
 */
export function importPathsIn(text: string): string[] {
  if (!text.includes('@')) return [];
  const found = new Set<string>();
  const add = (spelling: string): void => {
    const hash = spelling.indexOf('#');
    const path = (hash === -1 ? spelling : spelling.slice(0, hash)).replace(/\\ /g, ' ').trim();
    if (path === '' || path === '/' || !IMPORTABLE.test(path)) return;
    found.add(path);
    // Windows drops a name's trailing dots and spaces when opening it: `@rules.md.` reads rules.md there.
    const windows = path.slice(0, trailingRunStart(path, isWindowsDropped));
    if (windows !== path && /[^./]$/.test(windows) && IMPORTABLE.test(windows)) found.add(windows);
  };
  const prose = withoutFencedCode(text);
  for (const match of prose.matchAll(IMPORT_START)) {
    const whole = match[1];
    add(whole);
    for (const end of whole.matchAll(TOKEN_END)) add(whole.slice(0, end.index));
  }
  for (const match of prose.matchAll(IMPORT_RUN)) if (/\\(?=.)/.test(match[1])) add(match[1]);
  return [...found];
}
