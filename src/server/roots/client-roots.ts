import * as nodePath from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkKeyRoot } from '../../settings/key-roots';
import { foldPath, isPathInside } from '../../vault/paths/paths';
import { clusterPrefix } from '../../vault/content/text/graphemes';

/** Most roots read from one `roots/list` answer; later entries are ignored (and reported). */
export const MAX_CLIENT_ROOTS = 100;
/** Longest root URI accepted, chars. */
export const MAX_ROOT_URI_CHARS = 4096;

/** How the file system compares paths: separator style and whether case matters. */
export interface PathRules {
  /** `win32` reads `file:///C:/…` as `C:\…`; `posix` as `/…`. */
  platform: 'win32' | 'posix';
  /** True on Windows and macOS (default disks ignore case); false on Linux. */
  caseInsensitive: boolean;
}

/** The path rules of the machine the plugin runs on. */
export function hostPathRules(): PathRules {
  return {
    platform: process.platform === 'win32' ? 'win32' : 'posix',
    caseInsensitive: process.platform === 'win32' || process.platform === 'darwin',
  };
}

/** A root the server did not use, with why (the URI shortened to 200 chars). */
export interface IgnoredRoot {
  uri: string;
  reason: string;
}

/** The usable roots of one `roots/list` answer: absolute, normalized file-system paths. */
export interface ParsedRoots {
  paths: string[];
  ignored: IgnoredRoot[];
}

/**
 * Reads the `roots` array of a `roots/list` result (MCP spec 2025-06-18, "Roots": each root is
 * `{uri, name?}` and the URI must be `file://`). Each entry is judged on its own, so one hostile
 * entry never poisons the rest: a non-string or over-long URI, another scheme, a host other than
 * `localhost`, control characters (NUL included, raw or percent-encoded), an encoded `/` or `\`
 * (`%2F`, `%5C`), a broken percent-escape (not two hex digits, or not UTF-8), a `..` segment
 * (raw or as `%2e%2e`), a query or fragment, or a path that is not absolute is ignored with its
 * reason. Only the first {@link MAX_CLIENT_ROOTS} entries are read.
 * @param roots the `roots` value as the client sent it (anything).
 * @returns normalized absolute paths (NFC, no trailing separator), and the ignored entries.
 */
export function parseRoots(roots: unknown, rules: PathRules): ParsedRoots {
  const parsed: ParsedRoots = { paths: [], ignored: [] };
  if (!Array.isArray(roots)) {
    parsed.ignored.push({ uri: '', reason: 'roots is not a list' });
    return parsed;
  }
  roots.slice(0, MAX_CLIENT_ROOTS).forEach((root) => {
    const uri = root !== null && typeof root === 'object' ? (root as { uri?: unknown }).uri : undefined;
    const verdict = rootPathOf(uri, rules);
    if ('path' in verdict) {
      if (!parsed.paths.includes(verdict.path)) parsed.paths.push(verdict.path);
    } else parsed.ignored.push({ uri: typeof uri === 'string' ? clusterPrefix(uri, 200) : '', reason: verdict.reason });
  });
  if (roots.length > MAX_CLIENT_ROOTS) {
    parsed.ignored.push({ uri: '', reason: `${roots.length - MAX_CLIENT_ROOTS} roots past the first ${MAX_CLIENT_ROOTS} were not read` });
  }
  return parsed;
}

/** One root URI as an absolute path, or why it is not usable (see {@link parseRoots}). */
export function rootPathOf(uri: unknown, rules: PathRules): { path: string } | { reason: string } {
  if (typeof uri !== 'string') return { reason: 'uri is not a string' };
  if (uri.length > MAX_ROOT_URI_CHARS) return { reason: `uri is longer than ${MAX_ROOT_URI_CHARS} chars` };
  if (hasControlCharacter(uri) || /%(0[0-9a-f]|1[0-9a-f]|7f)/i.test(uri)) return { reason: 'uri contains control characters' };
  if (!/^file:\/\//i.test(uri)) return { reason: 'only file:// roots are used' };
  if (/(^|\/|%2f|%5c|\\)(\.|%2e){2}(\/|%2f|%5c|\\|$|\?|#)/i.test(uri.slice('file://'.length))) {
    return { reason: 'uri contains a ".." segment' };
  }
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return { reason: 'uri does not parse' };
  }
  if (url.host !== '' && url.host.toLowerCase() !== 'localhost') return { reason: 'uri names another host' };
  if (url.search !== '' || url.hash !== '') return { reason: 'uri has a query or fragment' };
  if (/%(2f|5c)/i.test(url.pathname)) return { reason: 'uri contains an encoded separator (%2F or %5C)' };
  if (/%(?![0-9a-f]{2})/i.test(url.pathname)) return { reason: 'uri has a broken percent-escape (% not followed by two hex digits)' };
  let path: string;
  try {
    path = fileURLToPath(url, { windows: rules.platform === 'win32' });
  } catch {
    return { reason: 'uri does not decode to a file path (percent-escapes that are not UTF-8)' };
  }
  const paths = rules.platform === 'win32' ? nodePath.win32 : nodePath.posix;
  if (path.includes('\u0000') || !paths.isAbsolute(path)) return { reason: 'uri is not an absolute path' };
  return { path: trimSeparator(paths.normalize(path).normalize('NFC'), rules) };
}

/**
 * True when `path` is a root in the form {@link rootPathOf} gives: absolute, normalized (no `.`
 * or `..` segment, no doubled or trailing separator but a file-system root's), NFC, without control
 * characters. For client roots another vault forwards (forward-assertion.ts): they are checked
 * again where they arrive, not trusted because the sender parsed them.
 */
export function isRootPath(path: string, rules: PathRules): boolean {
  if (hasControlCharacter(path)) return false;
  const paths = rules.platform === 'win32' ? nodePath.win32 : nodePath.posix;
  return paths.isAbsolute(path) && trimSeparator(paths.normalize(path).normalize('NFC'), rules) === path;
}

/** What a set of client roots means for one vault. */
export type RootsInVault =
  /** A root is the vault folder or contains it: the whole vault. */
  | { kind: 'whole' }
  /** Vault folders (vault-relative, `/`-separated) the roots name; none contains another. */
  | { kind: 'folders'; folders: string[] }
  /** No root touches the vault. */
  | { kind: 'elsewhere' };

/**
 * Places absolute root paths relative to a vault folder (MCP roots → vault folders).
 * @param paths roots from {@link parseRoots}.
 * @param vaultFolders the vault's absolute folder, in every spelling it may have (as opened and
 *   its real path, e.g. `/tmp/v` and `/private/tmp/v` on macOS); compared by `rules`.
 */
export function rootsInVault(paths: readonly string[], vaultFolders: readonly string[], rules: PathRules): RootsInVault {
  const folders: string[] = [];
  for (const path of paths) {
    for (const base of vaultFolders) {
      const relation = relate(path, trimSeparator(base.normalize('NFC'), rules), rules);
      if (relation.kind === 'contains') return { kind: 'whole' };
      if (relation.kind === 'inside') {
        // The folder a root names must pass the rule every key root does (settings/key-roots.ts); one that does not touches nothing.
        const folder = checkKeyRoot(relation.folder);
        if (folder.ok) folders.push(folder.root);
        break;
      }
    }
  }
  if (folders.length === 0) return { kind: 'elsewhere' };
  const fold = rules.caseInsensitive;
  const unique = folders.filter((f, i) => folders.findIndex((g) => isPathInside(f, g, fold) && isPathInside(g, f, fold)) === i);
  return { kind: 'folders', folders: unique.filter((f) => !unique.some((g) => g !== f && isPathInside(f, g, fold))) };
}

/**
 * The folders both a key and a client allow: a key without roots allows the whole vault; each
 * pair keeps the inner of the two when one contains the other. An empty result means nothing
 * is allowed (unlike a key's empty roots). An empty key root or client folder allows nothing
 * (as in vault/access/access-rules.ts isWithinRoots): it never stands for the whole vault.
 * @param fold compare case-insensitively (see {@link PathRules.caseInsensitive}).
 */
export function intersectRoots(keyRoots: readonly string[], clientFolders: readonly string[], fold: boolean): string[] {
  const clients = clientFolders.filter((client) => client !== '');
  if (keyRoots.length === 0) return clients;
  const out: string[] = [];
  for (const client of clients) {
    for (const key of keyRoots) {
      if (key === '') continue;
      const inner = isPathInside(client, key, fold) ? client : isPathInside(key, client, fold) ? key : null;
      if (inner !== null && !out.includes(inner)) out.push(inner);
    }
  }
  return out;
}

/**
 * Where `path` lies from `base`: the base or above it, inside it (as a vault-relative folder), or apart.
 * Compared one whole segment at a time, each folded with {@link foldPath} where the disk ignores case
 * (as every other path check folds: NotePolicy, key roots, {@link intersectRoots}), so `ſ`/`ı`/`K`
 * (Kelvin) match `s`/`i`/`k` as a case-insensitive disk takes them, and a fold that changes a
 * segment's length (`İ` → `i̇`) never shifts where the folder part begins: it is the path's own
 * segments past the base's count, in the path's spelling. `/v/Proj` is never inside `/v/P`.
 */
function relate(
  path: string,
  base: string,
  rules: PathRules,
): { kind: 'contains' } | { kind: 'inside'; folder: string } | { kind: 'apart' } {
  const p = segmentsOf(path, rules);
  const b = segmentsOf(base, rules);
  const same = (x: string, y: string): boolean => x === y || (rules.caseInsensitive && foldPath(x) === foldPath(y));
  const prefix = (short: string[], long: string[]): boolean => short.length <= long.length && short.every((s, i) => same(s, long[i]));
  if (prefix(p, b)) return { kind: 'contains' };
  if (prefix(b, p)) return { kind: 'inside', folder: p.slice(b.length).filter(Boolean).join('/') };
  return { kind: 'apart' };
}

/**
 * An absolute path's segments, split at `/` (and `\` on Windows); trailing separators add no empty
 * segment (`/` → `['']`, `C:\` → `['C:']`, `/v/A/` → `['', 'v', 'A']`), while the empty segments that
 * start a POSIX or UNC path stay, so `\\server\share` never equals `\server\share`.
 */
function segmentsOf(path: string, rules: PathRules): string[] {
  const segments = path.split(rules.platform === 'win32' ? /[\\/]/ : '/');
  while (segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
  return segments;
}

/** True when `text` has a C0 control character (NUL included) or DEL. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** Drops a trailing separator, except on a file-system root (`/`, `C:\`). */
function trimSeparator(path: string, rules: PathRules): string {
  const paths = rules.platform === 'win32' ? nodePath.win32 : nodePath.posix;
  return path.length > paths.parse(path).root.length ? path.replace(/[\\/]+$/, '') : path;
}
