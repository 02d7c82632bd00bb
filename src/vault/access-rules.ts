import { isPathInside } from './paths';

/**
 * What a key may do with one note, from its frontmatter (DESIGN.md, "Notes that agents may
 * not touch"): `private` behaves as missing for every tool, `read-only` refuses writes,
 * `read-write` is the default.
 */
export type NoteAccess = 'private' | 'read-only' | 'read-write';

/** Frontmatter key holding the note's own access level. */
export const ACCESS_KEY = 'access';
/** Frontmatter key holding per-key overrides: `{ <key label>: read-only | no-access }`. */
export const AGENT_OVERRIDES_KEY = 'agent_overrides';

/** Ranks levels so the strictest of several wins. */
const STRICTNESS: Record<NoteAccess, number> = { 'read-write': 0, 'read-only': 1, private: 2 };

/**
 * Reads one access value leniently: `private` / `no-access` (also `no access`, `noaccess`,
 * `none`) → private; `read-only` (also `readonly`, `read only`, `read_only`) → read-only;
 * a list takes its strictest entry; anything else → read-write.
 */
export function parseAccessValue(value: unknown): NoteAccess {
  if (Array.isArray(value)) return strictest(value.map(parseAccessValue));
  if (typeof value !== 'string') return 'read-write';
  const word = value.trim().toLowerCase().replace(/[\s_]+/g, '-');
  if (word === 'private' || word === 'no-access' || word === 'noaccess' || word === 'none') return 'private';
  if (word === 'read-only' || word === 'readonly') return 'read-only';
  return 'read-write';
}

/**
 * Combines the note's `access` with `agent_overrides[label]` (label matched exactly, as in
 * {@link AccessScope.label}); an override can only tighten, never loosen.
 * @param frontmatter the note's frontmatter (metadata cache), or undefined when it has none.
 * @param label the calling key's label.
 */
export function noteAccess(frontmatter: Record<string, unknown> | undefined, label: string): NoteAccess {
  if (!frontmatter) return 'read-write';
  const own = parseAccessValue(frontmatter[ACCESS_KEY]);
  const overrides = frontmatter[AGENT_OVERRIDES_KEY];
  if (!label || !overrides || typeof overrides !== 'object' || Array.isArray(overrides)) return own;
  if (!Object.prototype.hasOwnProperty.call(overrides, label)) return own;
  return strictest([own, parseAccessValue((overrides as Record<string, unknown>)[label])]);
}

/**
 * True when `path` lies inside one of the key's `roots` (or `roots` is empty: the whole vault).
 * Roots are compared exactly (case-sensitive): confinement must not widen by case folding.
 */
export function isWithinRoots(path: string, roots: readonly string[]): boolean {
  return roots.length === 0 || roots.some((root) => isPathInside(path, root));
}

function strictest(levels: NoteAccess[]): NoteAccess {
  return levels.reduce<NoteAccess>((a, b) => (STRICTNESS[b] > STRICTNESS[a] ? b : a), 'read-write');
}
