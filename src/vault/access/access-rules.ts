import { isPathInside } from '../paths/paths';

/**
 * What a key may do with one note, from its frontmatter
 * (docs/architecture.md#trust-model): `private` behaves as missing for every tool, `read-only` refuses writes,
 * `read-write` is the default.
 */
export type NoteAccess = 'private' | 'read-only' | 'read-write';

/** Frontmatter key holding the note's own access level. */
export const ACCESS_KEY = 'access';
/** Frontmatter key holding per-key overrides: `{ <key label>: read-only | no-access }`. */
export const AGENT_OVERRIDES_KEY = 'agent_overrides';

/** Ranks levels so the strictest of several wins. */
const STRICTNESS: Record<NoteAccess, number> = { 'read-write': 0, 'read-only': 1, private: 2 };

/** Words (lower case, spaces and underscores as `-`) that name each level; `read-write` is also what a note without a rule has. */
const LEVEL_WORDS: ReadonlyMap<string, NoteAccess> = new Map<string, NoteAccess>([
  ...['private', 'no-access', 'noaccess', 'none'].map((w): [string, NoteAccess] => [w, 'private']),
  ...['read-only', 'readonly'].map((w): [string, NoteAccess] => [w, 'read-only']),
  ...['read-write', 'readwrite', 'public', 'open'].map((w): [string, NoteAccess] => [w, 'read-write']),
]);

/**
 * Reads one access value (the value of an `access` property, or of a key's entry in
 * `agent_overrides`) leniently in spelling and strictly in meaning: `private` / `no-access`
 * (also `no access`, `noaccess`, `none`) → private; `read-only` (also `readonly`, `read only`,
 * `read_only`) → read-only; `read-write` (also `readwrite`, `public`, `open`) → read-write; a
 * list takes its strictest entry. Anything else (an unknown word such as the typo `privat`, an
 * empty value, a number, `true`, an empty list) → private: a rule the plugin cannot read is taken
 * at its strictest, as in a frontmatter block that does not parse ({@link unparsedBlockAccess}),
 * so a mistyped rule never opens a note (docs/security.md#access-rules-in-frontmatter).
 */
export function parseAccessValue(value: unknown): NoteAccess {
  if (Array.isArray(value)) return value.length === 0 ? 'private' : strictest(value.map(parseAccessValue));
  if (typeof value !== 'string') return 'private';
  const word = value
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
  return LEVEL_WORDS.get(word) ?? 'private';
}

/**
 * Combines the note's `access` with `agent_overrides[label]` (label matched exactly, as in
 * {@link AccessScope.label}); an override can only tighten, never loosen. Property names
 * compare without case (`Access:` is `access:`), and when several spellings are present the
 * strictest value wins.
 * @param frontmatter the note's frontmatter (metadata cache), or undefined when it has none.
 * @param label the calling key's label.
 */
export function noteAccess(frontmatter: Record<string, unknown> | undefined, label: string): NoteAccess {
  if (!frontmatter) return 'read-write';
  const levels: NoteAccess[] = [];
  for (const [key, value] of Object.entries(frontmatter)) {
    const name = key.trim().toLowerCase();
    if (name === ACCESS_KEY) levels.push(parseAccessValue(value));
    else if (name === AGENT_OVERRIDES_KEY && label && value && typeof value === 'object' && !Array.isArray(value)) {
      if (Object.prototype.hasOwnProperty.call(value, label)) levels.push(parseAccessValue((value as Record<string, unknown>)[label]));
    }
  }
  return strictest(levels);
}

/**
 * True when the note's access may differ from one key label to another: its frontmatter has an
 * `agent_overrides` property (name compared as {@link noteAccess} compares it, trimmed and
 * without case), the only rule noteAccess reads per label. A note without one has the same
 * level for every label, its `access` alone.
 * @param frontmatter the note's frontmatter (metadata cache), or undefined when it has none.
 */
export function namesLabelRules(frontmatter: Record<string, unknown> | undefined): boolean {
  if (!frontmatter) return false;
  for (const key of Object.keys(frontmatter)) {
    // Shorter than the name even with its spaces trimmed: no case folding needed (most properties).
    if (key.length >= AGENT_OVERRIDES_KEY.length && key.trim().toLowerCase() === AGENT_OVERRIDES_KEY) return true;
  }
  return false;
}

/**
 * The access level named by a frontmatter block that does not parse as YAML (the metadata
 * cache then has no frontmatter, so {@link noteAccess} would see none): every top-level line
 * whose key is `access` or `agent_overrides` in any case, quoted or not, and the list or
 * nested lines under it, read word by word. A value that cannot be read (empty, unknown word)
 * counts as `private`: a rule the app cannot parse is taken at its strictest.
 * @param block the raw YAML between the `---` lines. @param label the calling key's label.
 * @returns the strictest level named, or null when the block names no access key.
 */
export function unparsedBlockAccess(block: string, label: string): NoteAccess | null {
  let found = false;
  let accessSeen = false;
  let inside: 'access' | 'overrides' | null = null;
  let accessValues = 0;
  const levels: NoteAccess[] = [];
  for (const line of block.replace(/\r\n?/g, '\n').split('\n')) {
    const pair = /^(\s*)(?:-\s+)?["']?([^"':#]+?)["']?\s*:(?:\s+|$)(.*)$/.exec(line);
    if (!/^\s/.test(line) && !line.startsWith('-')) {
      inside = null;
      if (!pair) continue;
      const name = pair[2].trim().toLowerCase();
      if (name === ACCESS_KEY) {
        found = true;
        accessSeen = true;
        inside = 'access';
        if (pair[3].trim() !== '') {
          accessValues++;
          levels.push(unparsedValue(pair[3]));
        }
      } else if (name === AGENT_OVERRIDES_KEY) {
        found = true;
        inside = 'overrides';
        if (label && pair[3].includes(label)) levels.push(unparsedValue(pair[3].slice(pair[3].indexOf(label) + label.length)));
      }
      continue;
    }
    if (inside === 'access') {
      const item = /^\s*-\s*(.*)$/.exec(line);
      if (item) {
        accessValues++;
        levels.push(unparsedValue(item[1]));
      }
    } else if (inside === 'overrides' && pair && label && pair[2].trim() === label) {
      levels.push(unparsedValue(pair[3]));
    }
  }
  if (!found) return null;
  return accessSeen && accessValues === 0 ? 'private' : strictest(levels);
}

/** One raw value from an unparseable block: quotes, brackets and a `# comment` dropped; read as {@link parseAccessValue} reads a list. */
function unparsedValue(raw: string): NoteAccess {
  const words = raw
    .replace(/\s#.*$/, '')
    .replace(/^[\s:]+/, '')
    .split(',')
    .map((w) => w.replace(/["'[\]{}]/g, '').trim())
    .filter((w) => w !== '');
  return parseAccessValue(words);
}

/**
 * True when `path` lies inside one of the key's `roots` (or `roots` is empty: the whole vault).
 * Roots are compared exactly (case-sensitive): confinement must not widen by case folding.
 * An empty root contains nothing (it fails closed): every route refuses one where it is given
 * (settings/key-roots.ts), and should one slip through, it must not pass for the vault root.
 */
export function isWithinRoots(path: string, roots: readonly string[]): boolean {
  return roots.length === 0 || roots.some((root) => root !== '' && isPathInside(path, root));
}

function strictest(levels: NoteAccess[]): NoteAccess {
  return levels.reduce<NoteAccess>((a, b) => (STRICTNESS[b] > STRICTNESS[a] ? b : a), 'read-write');
}
