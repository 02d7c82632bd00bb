import { normalizePath as obsidianNormalizePath } from 'obsidian';
import { ToolError } from '../../errors';

/**
 * Lexical path rules shared by every NoteStore check: how an agent-supplied string becomes a
 * vault-relative path before any lookup, quarantine or roots check (DESIGN.md, "Notes that
 * agents may not touch": paths are normalized before any check). Nothing here reads the vault.
 */

/** An absolute file-system path or URL: `C:\…`, `\\server\…`, `file://…`, `obsidian://…`. */
const ABSOLUTE_OR_URL = /^(?:[a-zA-Z]:[\\/]|\\\\|[a-zA-Z][a-zA-Z0-9+.-]*:\/\/)/;
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
 * non-breaking spaces, NFC) gives the final form. Percent-escapes are not decoded here.
 * @param input the raw string as an agent sent it (outer whitespace is trimmed).
 * @returns the vault-relative path, or `''` for the vault root (`/`, `.`, `./`).
 * @throws ToolError('invalid_argument') for an empty string, control characters, or an
 *   absolute file-system path / URL; ToolError('forbidden') when `..` climbs above the vault.
 */
export function lexicalVaultPath(input: string): string {
  if (typeof input !== 'string' || input.trim() === '') {
    throw new ToolError('invalid_argument', "The path is empty; give a vault-relative path such as 'Folder/Note.md'.");
  }
  const raw = input.trim();
  if (CONTROL_CHARS.test(raw)) {
    throw new ToolError('invalid_argument', `Path '${printable(raw)}' contains control characters; give a plain vault-relative path.`);
  }
  if (ABSOLUTE_OR_URL.test(raw)) {
    throw new ToolError(
      'invalid_argument',
      `Path '${raw}' is an absolute file-system path or URL; give a vault-relative path such as 'Folder/Note.md'.`,
    );
  }
  const segments: string[] = [];
  for (const segment of raw.replace(/\\/g, '/').normalize('NFC').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) {
        throw new ToolError('forbidden', `Path '${raw}' leaves the vault; give a path inside the vault such as 'Folder/Note.md'.`);
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

/**
 * Folder-key comparison form: NFC and lower case, so `Café`/`CAFÉ` (NFD or NFC) compare equal.
 * Used where the stricter reading must win (quarantine, case-insensitive lookups).
 */
export function foldPath(path: string): string {
  return path.normalize('NFC').toLowerCase();
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

/** The parent folder of a vault-relative path (`''` for a top-level entry). */
export function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** Shows control characters as `\uXXXX` so an error message stays on one line. */
function printable(text: string): string {
  return text.replace(CONTROL_CHARS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
