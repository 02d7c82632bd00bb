import { normalizePath as obsidianNormalizePath } from 'obsidian';
import { quoteInput, ToolError } from '../../errors';
import { loneSurrogateAt } from '../content/text/lone-surrogates';

/**
 * Lexical path rules shared by every NoteStore check: how an agent-supplied string becomes a
 * vault-relative path before any lookup, quarantine or roots check
 * (docs/architecture.md#trust-model: paths are normalized before any check). Nothing here reads the vault.
 */

/** An absolute file-system path or URL: `C:\…`, `\\server\…`, `file://…`, `obsidian://…`. */
const ABSOLUTE_OR_URL = /^(?:[a-zA-Z]:[\\/]|\\\\|[a-zA-Z][a-zA-Z0-9+.-]*:\/\/)/;
/**
 * Where the vault lies on disk, for reading absolute paths that agents send (coding agents
 * think in absolute paths, and the `vaults` tool shows the vault's folder). Built by
 * NotePolicy from `FileSystemAdapter.getBasePath()` (vault-location.ts).
 */
export interface VaultOnDisk {
  /** The vault folder's absolute path in every spelling (as opened, real path), any separator, no trailing separator. */
  folders: readonly string[];
  /** True where the file system ignores case (Windows, macOS): folders compare ignoring case. */
  caseInsensitive: boolean;
  /** True when the vault has a top-level entry with this name (then `/name/…` is the vault-relative path it always was). */
  hasTopEntry(name: string): boolean;
  /** True when the file-system root has an entry with this name (`/tmp`, `/home`, `/Users`): `/name/…` is then a path outside the vault. */
  diskRootHas(name: string): boolean;
}

/** A Windows drive path (`C:\…`, `C:/…`) or UNC path (`\\server\…`). */
const WINDOWS_ABSOLUTE = /^(?:[a-zA-Z]:[\\/]|\\\\)/;
/** A `file://` URL. */
const FILE_URL = /^file:\/\//i;
/** `~` alone or as a path's first folder (`~/Notes/a.md`): a shell's home folder. */
const HOME_FOLDER = /^~(?:[\\/]|$)/;

/**
 * The one rule for an absolute file-system path inside the vault (issue 19): `raw`, as an
 * absolute path (POSIX `/…`, Windows `C:\…` or UNC, or a `file://` URL), with `.`/`..`
 * resolved as the file system would, lying in one of `vault.folders`, is read as the
 * vault-relative path below that folder. Every route that takes a note path (tools, note
 * resources, completion, key roots, quarantine entries) goes through {@link lexicalVaultPath} and so this rule.
 * @returns the vault-relative rest (`''` for the vault folder itself); `raw` unchanged when
 *   it is not absolute, or is a POSIX path whose first segment is a top-level vault entry or
 *   no entry of the disk's root (read as vault-relative, as a leading `/` always was).
 * @throws ToolError('invalid_argument') for an absolute path or `file://` URL outside the vault, and for a
 *   path whose first folder is `~` (a shell's home folder) while the vault has no top-level entry `~`.
 */
export function withoutVaultFolder(raw: string, vault: VaultOnDisk): string {
  if (HOME_FOLDER.test(raw) && !vault.hasTopEntry('~')) {
    throw new ToolError(
      'invalid_argument',
      `Path ${quoteInput(raw)} starts with '~', a shell's home folder, which no vault path reaches (it would make a folder named '~' in the vault); give a vault-relative path such as 'Folder/Note.md'.`,
    );
  }
  let absolute: string | null = null;
  if (FILE_URL.test(raw)) {
    const rest = decodePercentOnce(raw.slice('file://'.length).replace(/^localhost(?=\/)/i, ''));
    absolute = /^\/[a-zA-Z]:[\\/]/.test(rest) ? rest.slice(1) : rest;
  } else if (WINDOWS_ABSOLUTE.test(raw) || raw.startsWith('/')) {
    absolute = raw;
  }
  if (absolute === null) return raw;
  const windows = WINDOWS_ABSOLUTE.test(absolute);
  const segments = resolvedSegments(absolute);
  for (const folder of vault.folders) {
    const base = resolvedSegments(folder);
    const same = (a: string, b: string): boolean => (vault.caseInsensitive || windows ? foldPath(a) === foldPath(b) : a === b);
    if (base.length <= segments.length && base.every((segment, i) => same(segment, segments[i])))
      return segments.slice(base.length).join('/') || '/';
  }
  const first = segments[0] ?? '';
  if (!windows && !FILE_URL.test(raw) && (vault.hasTopEntry(first) || !vault.diskRootHas(first))) return raw;
  throw new ToolError(
    'invalid_argument',
    `Path ${quoteInput(raw)} is an absolute file-system path outside this vault; give a vault-relative path such as 'Folder/Note.md' (an absolute path inside the vault folder works too).`,
  );
}

/** An absolute path's segments (`/`, `\\` separators; `.` dropped, `..` climbing, never above the root), NFC. */
function resolvedSegments(path: string): string[] {
  const out: string[] = [];
  for (const segment of path.replace(/\\/g, '/').normalize('NFC').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return out;
}

/** C0 control characters (NUL, newlines, tabs...) never belong in a vault path. */
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's job
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
/** One or more consecutive percent-escapes, decoded together so multi-byte UTF-8 survives. */
const PERCENT_RUN = /(?:%[0-9a-fA-F]{2})+/g;

/**
 * Decodes percent-escapes once. Only runs that form valid UTF-8 are decoded; an invalid run
 * (e.g. `%E2%82` cut short) is kept literally. `%252e` becomes `%2e`, never `.`.
 * @param input any string. @returns the decoded string (unchanged when it holds no escapes).
 */
export function decodePercentOnce(input: string): string {
  return input.replace(PERCENT_RUN, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/**
 * Turns a path string into vault-relative form without touching the vault: backslashes
 * become `/`, Unicode is NFC, `.`/empty segments drop, `..` climbs, leading and trailing
 * slashes go, then Obsidian's `normalizePath` (API doc: collapses slashes, replaces
 * non-breaking spaces, NFC) gives the final form. Percent-escapes are not decoded here, and
 * outer whitespace is kept, as Obsidian's normalizePath keeps it (`Inbox ` may name `Inbox .md`):
 * PathSpelling decides when it is dropped, and settings lists trim their entries themselves.
 * @param input the raw string as an agent sent it.
 * @param vault where the vault is on disk: an absolute path inside it is read as the
 *   vault-relative path ({@link withoutVaultFolder}); without it every absolute path is refused.
 * @returns the vault-relative path, or `''` for the vault root (`/`, `.`, `./`).
 * @throws ToolError('invalid_argument') for an empty string, control characters, a lone UTF-16
 *   surrogate ({@link assertWellFormedPath}), or an absolute file-system path / URL (outside
 *   the vault, when `vault` is given);
 *   ToolError('forbidden') when `..` climbs above the vault.
 */
export function lexicalVaultPath(input: string, vault?: VaultOnDisk): string {
  if (typeof input !== 'string' || input.trim() === '') {
    throw new ToolError('invalid_argument', "The path is empty; give a vault-relative path such as 'Folder/Note.md'.");
  }
  if (CONTROL_CHARS.test(input)) {
    throw new ToolError(
      'invalid_argument',
      `Path ${quoteInput(printable(input))} contains control characters; give a plain vault-relative path.`,
    );
  }
  assertWellFormedPath(input);
  const raw = vault ? withoutVaultFolder(input, vault) : input;
  if (ABSOLUTE_OR_URL.test(raw)) {
    throw new ToolError(
      'invalid_argument',
      `Path ${quoteInput(raw)} is an absolute file-system path or URL; give a vault-relative path such as 'Folder/Note.md'.`,
    );
  }
  const segments: string[] = [];
  for (const segment of raw.replace(/\\/g, '/').normalize('NFC').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) {
        throw new ToolError(
          'forbidden',
          `Path ${quoteInput(raw)} leaves the vault; give a path inside the vault such as 'Folder/Note.md'.`,
        );
      }
      segments.pop();
      continue;
    }
    segments.push(segment);
  }
  if (segments.length === 0) return '';
  const normalized = obsidianNormalizePath(segments.join('/'));
  return normalized === '/' ? '' : normalized;
}

/** A character outside ASCII (see {@link foldPath}). */
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * Folder-key comparison form: NFC, then each character case-folded as the case-insensitive disks
 * fold names one character at a time (macOS APFS: Unicode case folding; Windows NTFS: its upcase
 * table), so names those disks take for one file compare equal: `Café`/`CAFÉ` (NFD or NFC), and
 * also `ſkills` (long s) / `skılls` (dotless i) / `Skills`, `AGENTſ.md` / `AGENTS.md`, `ς`/`Σ`/`σ`.
 * Each character becomes the lower case of its upper case when both steps keep it one code point
 * (Unicode's simple case folding: ſ → s, ı → i, ς → σ, ϐ → β, K (Kelvin, NFC already) → k), else
 * its lower case: the length never changes (ß stays ß; NTFS too keeps it apart from ss), except `İ`, which
 * lower-cases to `i̇` as before. A Greek word ending in `Σ` folds to `σ` wherever it stands
 * (`toLowerCase` alone gives a final `ς`). An ASCII path costs one regex test and
 * `toLowerCase` (this runs for every path of a scan).
 * Used where the stricter reading must win (quarantine, agent instructions, case twins, lookups).
 * @param path any path or name. @returns its folded form, for comparison only (never a path to use).
 */
export function foldPath(path: string): string {
  // NFC leaves ASCII as it is: only a path with other characters is normalized (an ICU call; about half of foldPath's time over 100k ASCII paths).
  if (!NON_ASCII.test(path)) return path.toLowerCase();
  const nfc = path.normalize('NFC');
  // Nearly always the lower case already is the fold (only ſ, ı, a final ς, İ… differ): one native call, then a check.
  const lower = nfc.toLowerCase();
  if (lower.length === nfc.length && foldsToItself(lower)) return lower;
  let folded = '';
  for (const ch of nfc) folded += foldChar(ch);
  return folded;
}

/**
 * True when the vault path `path` is the note a person or agent typed as `typed` (`.md` optional, a
 * leading slash and backslashes allowed, case and Unicode form ignored as every path lookup ignores
 * them: {@link foldPath}). A name typed with `.md` is that note only: `T/Y.md` never takes `T/Y.md.md`.
 */
export function namesNotePath(path: string, typed: string): boolean {
  const wanted = foldPath(typed.replace(/\\/g, '/').replace(/^\/+/, ''));
  const have = foldPath(path);
  return have === wanted || (!wanted.endsWith('.md') && have === `${wanted}.md`);
}

/**
 * Per BMP code unit, whether it is its own fold: 0 not known yet, 1 yes, 2 no (64 KiB, filled as
 * characters are met, so the check of a path's characters is one array read each).
 */
const SELF_FOLDING = new Uint8Array(0x10000);

/**
 * True when every character of the lower-cased `lower` is its own fold ({@link foldChar}). A
 * surrogate counts as its own fold: no character outside the BMP folds other than it lower-cases
 * (Unicode 17; test/unit/vault/access/vault-paths.test.ts checks every code point).
 */
function foldsToItself(lower: string): boolean {
  for (let i = 0; i < lower.length; i++) {
    const unit = lower.charCodeAt(i);
    if (unit < 0x80) continue;
    SELF_FOLDING[unit] ||= foldChar(lower[i]) === lower[i] ? 1 : 2;
    if (SELF_FOLDING[unit] === 2) return false;
  }
  return true;
}

/** One code point folded (see {@link foldPath}): the lower case of its upper case when both are one code point, else its lower case. */
function foldChar(ch: string): string {
  const upper = ch.toUpperCase();
  const lower = upper.toLowerCase();
  return [...upper].length === 1 && [...lower].length === 1 ? lower : ch.toLowerCase();
}

/**
 * True when `path` is `folder` itself or lies inside it. Both are vault-relative and
 * normalized; `folder === ''` (the vault root) contains everything.
 * @param fold compare case- and normalization-insensitively (see {@link foldPath}).
 */
export function isPathInside(path: string, folder: string, fold = false): boolean {
  if (folder === '') return true;
  const p = fold ? foldPath(path) : path;
  const f = fold ? foldPath(folder) : folder;
  return p === f || p.startsWith(`${f}/`);
}

/**
 * True when a path as given ends in a separator, alone or followed by a `.`/`..` segment
 * (`Inbox/`, `Inbox.md\\`, `Inbox.md/.`): it names a folder, although {@link lexicalVaultPath} drops that ending.
 */
export function endsInSeparator(input: string): boolean {
  return /[\\/](?:\.\.?)?\s*$/.test(input);
}

/** The parent folder of a vault-relative path (`''` for a top-level entry). */
export function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** Shows control characters as `\uXXXX` so an error message stays on one line. */
function printable(text: string): string {
  return text.replace(CONTROL_CHARS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Refuses a path or id holding a lone UTF-16 surrogate (half of a character such as an emoji):
 * no file name can hold one (the disk would get U+FFFD instead, a different name), and it
 * names no note.
 * @throws ToolError('invalid_argument') naming the offset of the first lone surrogate.
 */
export function assertWellFormedPath(input: string): void {
  const at = loneSurrogateAt(input);
  if (at >= 0) {
    throw new ToolError(
      'invalid_argument',
      `The path or id has a lone UTF-16 surrogate at char ${at} (half of a character such as an emoji), which no file name can hold; send whole characters (well-formed Unicode).`,
    );
  }
}

/** Longest path or id accepted, in characters (file systems stop far earlier). */
export const MAX_PATH_CHARS = 1024;

/**
 * The checks every path or id a caller sends passes before any lookup.
 * @throws ToolError('invalid_argument') when `input` is longer than {@link MAX_PATH_CHARS}
 *   (the message does not echo it), or as {@link assertWellFormedPath}.
 */
export function assertPathInput(input: string): void {
  if (input.length > MAX_PATH_CHARS) {
    throw new ToolError('invalid_argument', `A path or id may be at most ${MAX_PATH_CHARS} characters; this one has ${input.length}.`);
  }
  assertWellFormedPath(input);
}

/**
 * A key's roots as a message lists them: `Projects, Journal`, a root with spaces at its ends
 * quoted (`" Sp "`), since outer spaces are part of a folder's name and would not show.
 * @param roots the key's roots (vault folder paths)
 */
export function rootsShown(roots: readonly string[]): string {
  return roots.map((root) => (root.trim() === root ? root : JSON.stringify(root))).join(', ');
}
