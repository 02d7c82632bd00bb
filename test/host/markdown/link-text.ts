/**
 * Link text helpers with Obsidian's rules (obsidian.d.ts `getLinkpath`, `parseLinktext`): the
 * linktext is what sits between `[[` and `]]` without the `|alias`; the linkpath is the part
 * before the first `#`, the subpath is `#heading`, `#heading#sub` or `#^block-id`.
 */

/**
 * Splits linktext (no `[[ ]]`, no alias) into `{path, subpath}`: `Note#Heading` →
 * `{path: 'Note', subpath: '#Heading'}`; `#^abc` → `{path: '', subpath: '#^abc'}`.
 */
export function parseLinktext(linktext: string): { path: string; subpath: string } {
  const i = linktext.indexOf('#');
  if (i < 0) return { path: linktext, subpath: '' };
  return { path: linktext.slice(0, i), subpath: linktext.slice(i) };
}

/** The linkpath of a linktext: the part before the first `#` (`Note#H` → `Note`). */
export function getLinkpath(linktext: string): string {
  return parseLinktext(linktext).path;
}

/** The parts of a wikilink's inner text (`target#sub|alias`). */
export interface WikilinkParts {
  /** Linktext without the alias: `target#sub`. */
  link: string;
  /** The alias after `|`, if any (a `\|` inside a table cell counts as the separator). */
  alias?: string;
}

/**
 * Splits the inner text of `[[...]]` into link and alias. In tables Obsidian writes the
 * separator as `\|`; the trailing backslash is not part of the link.
 */
export function splitWikilink(inner: string): WikilinkParts {
  const bar = inner.indexOf('|');
  if (bar < 0) return { link: inner.trim() };
  let link = inner.slice(0, bar);
  if (link.endsWith('\\')) link = link.slice(0, -1);
  return { link: link.trim(), alias: inner.slice(bar + 1) };
}

/**
 * The display text Obsidian stores for a wikilink without alias: the linktext with `#`
 * separators shown as ` > ` (`Note#H` → `Note > H`, `#H` → `H`).
 */
export function wikilinkDisplayText(link: string): string {
  const { path, subpath } = parseLinktext(link);
  const parts = subpath.split('#').filter((s) => s !== '');
  return [path, ...parts].filter((s) => s !== '').join(' > ');
}

/**
 * Whether a Markdown link destination points inside the vault: not a URL with a scheme
 * (`https:`, `mailto:`, `obsidian:` ...), not protocol-relative, not a bare `#anchor`-only
 * external fragment. `Note.md`, `folder/Note.md`, `../x.md`, `Note#Heading` are internal.
 */
export function isInternalDestination(url: string): boolean {
  if (url === '' || url.startsWith('//')) return false;
  return !/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(url);
}

/** Decodes `%20`-style escapes of a Markdown link destination; malformed escapes stay as-is. */
export function decodeDestination(url: string): string {
  try {
    return decodeURI(url);
  } catch {
    return url;
  }
}
