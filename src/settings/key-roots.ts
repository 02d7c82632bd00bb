/**
 * The one rule for a key's roots, whichever route they come by (docs/security.md#key-roots): the
 * `--roots` flag, a `--settings` file, the plugin's data.json, the settings tab, and the folders
 * client MCP roots place in the vault. A root is a folder path relative to the vault that
 * normalizes to a non-empty path inside it. An empty root, `.` (or anything that normalizes to
 * the vault itself), an absolute path or URL, a path that climbs out with `..`, and control
 * characters, and wildcards (`*`, `?`: Obsidian allows them in no name) are refused where they are given: an empty roots list is how a key gets the whole
 * vault, so no single root may silently mean it, and a root that can match no note must not
 * pass for a confinement. The two comma lists (`--roots` and the tab's field) trim their entries,
 * but never into another folder than the one typed ({@link pickListedRoot}). Lexical only:
 * nothing here reads the vault (the routes pass in what they found there).
 */

/** Why a root was refused, one kind per rule above. */
export type KeyRootFault = 'type' | 'empty' | 'vault' | 'absolute' | 'escapes' | 'control' | 'wildcard';

/** The verdict on one root: its normalized form, or why it is refused. */
export type KeyRootVerdict =
  | { ok: true; root: string }
  | {
      ok: false;
      fault: KeyRootFault;
      /** A clause to follow the root as quoted by the caller, e.g. `is empty, which would be the whole vault`. */
      reason: string;
    };

/** What to do instead, shared by every route's refusal. */
export const KEY_ROOT_ADVICE =
  'give folders relative to the vault, such as "Projects" or "Journal/2025"; a key with no roots sees the whole vault';

/** An absolute path or URL: `/…`, `\…`, `C:…`, `scheme://…`. */
const ABSOLUTE_OR_URL = /^(?:[\\/]|[a-zA-Z]:|[a-zA-Z][a-zA-Z0-9+.-]*:\/\/)/;
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's job
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
/** The no-break spaces Obsidian's normalizePath turns into plain spaces. */
const NO_BREAK_SPACES = /[\u00a0\u202f]/g;
/** Wildcards: a root is a folder path, never a pattern (Obsidian refuses `*` and `?` in file and folder names). */
const WILDCARDS = /[*?]/;

const REASONS: Record<KeyRootFault, string> = {
  type: 'is not text',
  empty: 'is empty, which would be the whole vault',
  vault: 'names the vault itself, which would be the whole vault',
  absolute: 'is an absolute path, not a folder relative to the vault',
  escapes: 'climbs out of the vault with ".."',
  control: 'contains control characters',
  wildcard: 'holds a wildcard (* or ?), but roots are folder paths, not patterns (a root takes every folder below it)',
};

/**
 * Checks and normalizes one root by the rule above: backslashes read as `/`, empty and `.`
 * segments dropped, `..` climbing inside the path, Unicode NFC, no-break spaces as spaces (as
 * Obsidian's normalizePath spells vault paths). Outer whitespace is part of the name (Obsidian
 * trims nothing); a root of whitespace alone is empty. Never throws.
 * @param raw the root as given (anything: a settings file may hold any JSON value).
 * @returns `{ok: true, root}` with the vault-relative folder (`Projects/` → `Projects`), or
 *   `{ok: false, fault, reason}`.
 */
export function checkKeyRoot(raw: unknown): KeyRootVerdict {
  const refuse = (fault: KeyRootFault): KeyRootVerdict => ({ ok: false, fault, reason: REASONS[fault] });
  if (typeof raw !== 'string') return refuse('type');
  if (raw.trim() === '') return refuse('empty');
  if (CONTROL_CHARS.test(raw)) return refuse('control');
  if (ABSOLUTE_OR_URL.test(raw)) return refuse('absolute');
  if (WILDCARDS.test(raw)) return refuse('wildcard');
  const segments: string[] = [];
  for (const segment of raw.replace(/\\/g, '/').normalize('NFC').replace(NO_BREAK_SPACES, ' ').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment !== '..') segments.push(segment);
    else if (segments.pop() === undefined) return refuse('escapes');
  }
  return segments.length === 0 ? refuse('vault') : { ok: true, root: segments.join('/') };
}

/** The verdict on a key's whole roots list: the normalized roots, or the first refused one. */
export type KeyRootsVerdict =
  { ok: true; roots: string[] } | { ok: false; index: number; given: unknown; fault: KeyRootFault; reason: string };

/**
 * Checks every root of one key with {@link checkKeyRoot}.
 * @param roots the key's roots as given.
 * @returns the normalized roots (duplicates after normalization dropped, order kept), or the
 *   first refused root with its index in `roots`. An empty list passes: the whole vault.
 */
export function checkKeyRoots(roots: readonly unknown[]): KeyRootsVerdict {
  const out: string[] = [];
  for (const [index, given] of roots.entries()) {
    const verdict = checkKeyRoot(given);
    if (!verdict.ok) return { ok: false, index, given, fault: verdict.fault, reason: verdict.reason };
    if (!out.includes(verdict.root)) out.push(verdict.root);
  }
  return { ok: true, roots: out };
}

/** A root quoted for a message: JSON, so `""` and `" "` show (at most 60 chars). */
export function quoteRoot(given: unknown): string {
  const json = JSON.stringify(given) ?? String(given);
  return json.length > 60 ? `${json.slice(0, 57)}...` : json;
}

/**
 * The refusal of a saved key whose roots break the rule (a hand-edited or synced data.json: the
 * plugin's lenient load keeps such roots as written, never dropping them into the whole vault),
 * for the server's door and the notice at load.
 * @param key the key's label and roots as saved.
 * @returns one sentence naming the key, the first bad root and what to do, or null when its roots pass.
 */
export function keyRootsRefusal(key: { label: string; roots: readonly unknown[] }): string | null {
  const verdict = checkKeyRoots(key.roots);
  if (verdict.ok) return null;
  return `Key "${key.label}" may touch no note: its root ${quoteRoot(verdict.given)} ${verdict.reason}; fix its roots in Vault MCP settings → Keys (${KEY_ROOT_ADVICE}).`;
}

/**
 * The notice for saved keys whose roots break the rule ({@link keyRootsRefusal}), shown when the
 * plugin loads data.json or picks up an outside edit of it: such a key is refused at the door
 * until its roots are fixed, and the user learns why without waiting for an agent to fail.
 * @returns `Vault MCP: ` and one sentence per such key, or null when every key's roots pass.
 */
export function keyRootsNotice(keys: ReadonlyArray<{ label: string; roots: readonly unknown[] }>): string | null {
  const refusals = keys.map(keyRootsRefusal).filter((message): message is string => message !== null);
  return refusals.length === 0 ? null : `Vault MCP: ${refusals.join(' ')}`;
}

/**
 * One entry of a comma-separated roots list: the `--roots` flag and the settings tab's roots
 * field, the two routes where a user types several roots in one line ({@link splitRootList}).
 */
export interface RootListEntry {
  /** The entry as typed between its commas, outer whitespace included. */
  typed: string;
  /** The entry without its outer whitespace: what the list means by default (`Projects, Journal`). */
  trimmed: string;
}

/**
 * Splits a comma-separated roots list into its entries. Entries are trimmed for convenience
 * (`Projects, Journal` is two roots, the space after the comma is no part of `Journal`), but the
 * typed spelling is kept beside the trimmed one: outer whitespace is part of a folder's name
 * (Obsidian trims nothing), so when a folder of the exact typed name exists the route decides by
 * {@link pickListedRoot} which folder the entry names. Entries of whitespace alone are dropped.
 * A comma cannot be part of a root typed this way (such a folder is named in a settings file).
 * @param text the list as typed.
 * @returns the entries in order, blanks left out (an empty list when the text holds no entry).
 */
export function splitRootList(text: string): RootListEntry[] {
  return text
    .split(',')
    .map((typed) => ({ typed, trimmed: typed.trim() }))
    .filter((entry) => entry.trimmed !== '');
}

/**
 * The root an entry of a roots list names with its outer whitespace kept, when that is another
 * root than the trimmed entry's: the second spelling {@link pickListedRoot} weighs.
 * @param entry the entry ({@link splitRootList}).
 * @param trimmedRoot the root the trimmed entry gave (after `toVaultPath` and {@link checkKeyRoot}).
 * @param toVaultPath the route's reading of an entry before the roots rule (the settings tab
 *   makes it vault-relative and gives an existing folder's spelling); default: as typed.
 * @returns the untrimmed entry's root, or null when trimming changed nothing, when the untrimmed
 *   entry gives the same root, or when it breaks the roots rule or `toVaultPath` throws on it
 *   (then only the trimmed entry is meant).
 */
export function untrimmedRoot(entry: RootListEntry, trimmedRoot: string, toVaultPath: (root: string) => string = (r) => r): string | null {
  if (entry.typed === entry.trimmed) return null;
  let path: string;
  try {
    path = toVaultPath(entry.typed);
  } catch {
    return null;
  }
  const verdict = checkKeyRoot(path);
  return verdict.ok && verdict.root !== trimmedRoot ? verdict.root : null;
}

/** The verdict on one entry of a roots list ({@link pickListedRoot}): the root to keep, or why the entry is refused. */
export type ListedRootVerdict = { ok: true; root: string } | { ok: false; reason: string };

/**
 * Which folder an entry of a roots list confines the key to, when trimming its outer whitespace
 * changed it (docs/security.md#key-roots): the one rule of the `--roots` flag and the settings
 * tab's roots field. The trimmed entry is meant unless it names no folder and the entry as typed
 * does; when both name a folder, and not the same one, the entry is refused, since either reading
 * would silently confine the key to a folder the user may not have meant. Lexical: the caller
 * looks the two spellings up in its vault (the tab in Obsidian's, `npm start` on disk), each as
 * every root is placed (exact, then NFC, then the one folder equal ignoring case).
 *
 * The same rule reads every other vault path the settings tab trims as it is typed (a trusted
 * symbolic link, the skills and widgets folders: src/ui/settings/sections/access-section.ts
 * pickTypedPath), where `folder` is whatever entry the route looks for and `things` names it.
 * @param trimmed the trimmed entry's root and the existing folder it names (vault path in the
 *   vault's spelling), or null when it names none.
 * @param exact the untrimmed entry's root ({@link untrimmedRoot}) and the existing folder it
 *   names, or null when there is no second spelling.
 * @param things what the refusal calls the two places the entry names (plural; default `folders`,
 *   the trusted-link field says `entries of the vault`, as a link may lead to a file).
 * @returns `{ok: true, root}`: the folder when one spelling names one (both naming the same one
 *   counts as one), else the trimmed root (a folder not there yet is kept as the trimmed entry
 *   spells it); or `{ok: false, reason}`, a clause to follow the quoted entry, naming both
 *   folders and how to type each.
 */
export function pickListedRoot(
  trimmed: { root: string; folder: string | null },
  exact: { root: string; folder: string | null } | null,
  things = 'folders',
): ListedRootVerdict {
  if (exact?.folder == null || exact.folder === trimmed.folder) return { ok: true, root: trimmed.folder ?? trimmed.root };
  if (trimmed.folder === null) return { ok: true, root: exact.folder };
  return {
    ok: false,
    reason:
      `names two ${things}, ${quoteRoot(trimmed.folder)} with its outer spaces trimmed and ${quoteRoot(exact.folder)} as typed; ` +
      `write ${quoteRoot(trimmed.folder)} with no space before or after it for the first, or ${quoteRoot(listSpelling(exact.folder))} for the second ` +
      '("./" before it and "/" after it keep its spaces)',
  };
}

/**
 * A root as a roots list spells it so that reading the list back gives the same root: as it is,
 * or, when it has outer whitespace, between `./` and `/` (which the list's trimming leaves alone).
 * @param root a normalized root (checkKeyRoot's).
 * @returns `Projects` → `Projects`, ` Sp ` → `./ Sp /`.
 */
export function listSpelling(root: string): string {
  return root.trim() === root ? root : `./${root}/`;
}

/**
 * A key's roots as the settings tab's roots field shows them: each by {@link listSpelling}, joined
 * by `, `, so saving the field unchanged gives the same roots (a root with outer spaces is not
 * trimmed into another folder).
 * @param roots the key's roots as saved (a synced data.json may hold anything: what is not text is shown as `String` gives it).
 */
export function formatRootList(roots: readonly unknown[]): string {
  return roots.map((root) => (typeof root === 'string' ? listSpelling(root) : String(root))).join(', ');
}
