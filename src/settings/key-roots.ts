/**
 * The one rule for a key's roots, whichever route they come by (docs/security.md#key-roots): the
 * `--roots` flag, a `--settings` file, the plugin's data.json, the settings tab, and the folders
 * client MCP roots place in the vault. A root is a folder path relative to the vault that
 * normalizes to a non-empty path inside it. An empty root, `.` (or anything that normalizes to
 * the vault itself), an absolute path or URL, a path that climbs out with `..`, and control
 * characters are refused where they are given: an empty roots list is how a key gets the whole
 * vault, so no single root may silently mean it, and a root that can match no note must not
 * pass for a confinement. Lexical only: nothing here reads the vault.
 */

/** Why a root was refused, one kind per rule above. */
export type KeyRootFault = 'type' | 'empty' | 'vault' | 'absolute' | 'escapes' | 'control';

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

const REASONS: Record<KeyRootFault, string> = {
  type: 'is not text',
  empty: 'is empty, which would be the whole vault',
  vault: 'names the vault itself, which would be the whole vault',
  absolute: 'is an absolute path, not a folder relative to the vault',
  escapes: 'climbs out of the vault with ".."',
  control: 'contains control characters',
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
