/**
 * How agents name notes (docs/architecture.md#tool-contract): a vault path (`.md` optional), an id (the
 * frontmatter `id`, else the synthetic `path:<path>`), or a bare name that resolves like a
 * wikilink. These helpers read and write those forms; NoteStore does the lookups.
 */

/** Prefix of synthetic ids given to notes without a frontmatter `id`. */
export const SYNTHETIC_ID_PREFIX = 'path:';

/** The synthetic id of the note at `path`: `path:<path>`. */
export function syntheticId(path: string): string {
  return `${SYNTHETIC_ID_PREFIX}${path}`;
}

/** The path inside a synthetic id (`path:Folder/Note.md` → `Folder/Note.md`), or null for any other id. */
export function pathOfSyntheticId(id: string): string | null {
  return id.startsWith(SYNTHETIC_ID_PREFIX) ? id.slice(SYNTHETIC_ID_PREFIX.length) : null;
}

/**
 * The frontmatter `id` as a string: a non-empty string (trimmed) or a finite number;
 * anything else (missing, list, object, empty) → null. A string starting with
 * {@link SYNTHETIC_ID_PREFIX} is null too: that prefix names a note by its path, so `id: path:Home.md`
 * in another note would give it Home.md's id (an agent reading it by that id got Home.md), and
 * `id: path:Nowhere.md` an id that reads nothing. Such a note's id is its own `path:` id.
 */
export function frontmatterId(frontmatter: Record<string, unknown> | undefined): string | null {
  const id = frontmatter?.id;
  if (typeof id === 'string' && id.trim() !== '') return pathOfSyntheticId(id.trim()) === null ? id.trim() : null;
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  return null;
}

/** A whole input that is one wikilink (`[[…]]`, or an embed `![[…]]`), outer spaces allowed; group 1 its inside. */
const PASTED_WIKILINK = /^\s*!?\[\[([^\]]*)\]\]\s*$/;

/**
 * The part after the note name of a wikilink an agent pasted as a note name (Obsidian's link syntax,
 * help.obsidian.md/links): `[[Note#Heading]]` names a heading (`[[Note#A#B]]` a heading under
 * another, given as `A/B`, read_note's section form), `[[Note#^id]]` a block. Display text after
 * `|` is dropped.
 * @returns `{heading}` or `{block}` (without its `^`), or null for text not wrapped in `[[…]]` or a link to a whole note
 */
export function wikilinkSubpath(input: string): { heading: string } | { block: string } | null {
  const m = PASTED_WIKILINK.exec(input);
  if (!m) return null;
  const target = m[1].split('|')[0];
  const hash = target.indexOf('#');
  if (hash < 0) return null;
  const subpath = target.slice(hash + 1).trim();
  if (subpath.startsWith('^')) return subpath.length > 1 ? { block: subpath.slice(1) } : null;
  const headings = subpath
    .split('#')
    .map((heading) => heading.trim())
    .filter((heading) => heading !== '');
  return headings.length === 0 ? null : { heading: headings.join('/') };
}

/**
 * Unwraps a wikilink an agent pasted as a note name: `[[Note|Alias]]`, `[[Note#Heading]]`
 * and `[[Note^block]]` all become `Note`. Text not wrapped in `[[…]]` is returned unchanged.
 */
export function unwrapWikilink(input: string): string {
  const m = PASTED_WIKILINK.exec(input);
  if (!m) return input;
  return m[1].split('|')[0].split('#')[0].split('^')[0].trim();
}
