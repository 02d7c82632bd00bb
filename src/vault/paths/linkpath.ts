import type { TFile } from 'obsidian';
import { quoteInput, ToolError, withoutNames } from '../../errors';
import { foldPath } from './paths';

/**
 * Resolves a note name the way a wikilink does (Obsidian help, "Internal links": the link
 * text is a file name, or a partial path to tell same-named notes apart), among the notes
 * the caller may read. Unlike Obsidian, which silently picks one of several same-named
 * notes, an ambiguous name is an error listing the candidates (docs/architecture.md#tool-contract).
 * @param linkpath a normalized name or partial path, `.md` optional, e.g. `Meeting notes`
 *   or `Alpha/Meeting notes`.
 * @param notes the readable Markdown notes.
 * @param frontmatterOf frontmatter of a note (for `aliases`).
 * @param firstLinkpathDest Obsidian's own answer (`metadataCache.getFirstLinkpathDest(linkpath, '')`),
 *   used only when no note's path ends with the name; it must be one of `notes` to count, and for
 *   a name that ends in `.md`, a note whose path ends with that name (Obsidian's lookup also tries
 *   the linkpath with `.md` added, so `Inbox.md` could reach `Inbox.md.md`): a path given with
 *   `.md` names that note exactly (docs/tool-reference.md).
 * @returns the note, or null when nothing matches.
 * @throws ToolError('ambiguous') when several notes match by path suffix or by alias.
 */
export function resolveLinkpath(
  linkpath: string,
  notes: readonly TFile[],
  frontmatterOf: (file: TFile) => Record<string, unknown>,
  firstLinkpathDest: () => TFile | null,
): TFile | null {
  const target = foldPath(linkpath.replace(/\.md$/i, ''));
  const bySuffix = notes.filter((file) => {
    const p = foldPath(file.path.replace(/\.md$/i, ''));
    return p === target || p.endsWith(`/${target}`);
  });
  if (bySuffix.length > 0) return single(bySuffix, linkpath);
  const dest = firstLinkpathDest();
  if (dest && notes.includes(dest) && !(/\.md$/i.test(linkpath) && !foldPath(dest.path).endsWith(foldPath(linkpath)))) return dest;
  if (linkpath.includes('/')) return null;
  const byAlias = notes.filter((file) => aliasesOf(frontmatterOf(file)).some((alias) => foldPath(alias) === target));
  return byAlias.length > 0 ? single(byAlias, linkpath) : null;
}

/**
 * The `aliases` (or legacy `alias`) frontmatter as a list of strings: a list, or one string
 * (comma-separated), per Obsidian's "Aliases" property.
 */
export function aliasesOf(frontmatter: Record<string, unknown>): string[] {
  const raw = frontmatter.aliases ?? frontmatter.alias;
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [];
  return list
    .filter((a): a is string => typeof a === 'string')
    .map((a) => a.trim())
    .filter((a) => a !== '');
}

function single(matches: readonly TFile[], name: string): TFile {
  if (matches.length === 1) return matches[0];
  const paths = matches.map((f) => f.path).sort();
  throw new ToolError(
    'ambiguous',
    `Note name ${quoteInput(name)} matches ${paths.length} notes (${paths.join(', ')}); pass the full path of the one you mean.`,
    undefined,
    withoutNames(`Note name ${quoteInput(name)} matches several notes; pass the full path`),
  );
}
