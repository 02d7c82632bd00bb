/**
 * Vault path helpers with Obsidian's rules. Vault paths are relative to the vault root,
 * use `/` as separator, have no leading or trailing slash, and the root itself is `/`.
 */

/**
 * Normalizes a vault path exactly like Obsidian's `normalizePath` (obsidian.d.ts):
 * runs of `/` and `\` become one `/`, leading and trailing slashes are stripped, an empty
 * result becomes `/` (the vault root), non-breaking spaces (U+00A0, U+202F) become plain
 * spaces, and the string is Unicode NFC-normalized. Never throws.
 */
export function normalizePath(path: string): string {
  let out = path.replace(/([\\/])+/g, '/').replace(/(^\/+|\/+$)/g, '');
  if (out === '') out = '/';
  out = out.replace(/[\u00A0\u202F]/g, ' ');
  return out.normalize('NFC');
}

/** Returns the parent folder path of a vault path (`/` for top-level entries). */
export function parentPath(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

/** Returns the last segment of a vault path (`Folder/Note.md` → `Note.md`). */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * Splits a file name into Obsidian's `basename` and `extension` (without the dot):
 * `Note.md` → [`Note`, `md`]; `.hidden` and `README` have an empty extension.
 */
export function splitExtension(name: string): [basename: string, extension: string] {
  const i = name.lastIndexOf('.');
  if (i <= 0) return [name, ''];
  return [name.slice(0, i), name.slice(i + 1)];
}

/** Joins a folder path (`/` for the root) and a child name into a vault path. */
export function joinPath(folder: string, name: string): string {
  return folder === '/' || folder === '' ? name : `${folder}/${name}`;
}

/**
 * Checks that a normalized vault path stays inside the vault: no `..` or `.` segment.
 * Throws an Error naming the path when it would leave the vault.
 */
export function assertInsideVault(path: string): void {
  if (path.split('/').some((seg) => seg === '..' || seg === '.')) {
    throw new Error(`Path "${path}" contains "." or ".." segments; use a path inside the vault.`);
  }
}

/**
 * Whether a vault path is hidden from Obsidian's file index: any segment starting with `.`
 * (dot-files and dot-folders, which includes the default config dir `.obsidian` and `.trash`),
 * any `node_modules` segment, or a path under the configured config dir.
 */
export function isHiddenPath(path: string, configDir: string): boolean {
  if (path === configDir || path.startsWith(configDir + '/')) return true;
  return path.split('/').some((seg) => seg.startsWith('.') || seg === 'node_modules');
}
