import type * as O from 'obsidian';
import { splitWikilink, wikilinkDisplayText } from './link-text';

const WHOLE_WIKILINK = /^\[\[([^[\]\n]+)\]\]$/;

/**
 * Collects Obsidian's `frontmatterLinks` from parsed frontmatter: every string property value
 * that is exactly one wikilink (`"[[Note|Alias]]"`). `key` is the property name, with `.N`
 * for list items and `.sub` for nested mappings (`related.0`). Returns [] when there are none.
 */
export function frontmatterLinks(data: Record<string, unknown>): O.FrontmatterLinkCache[] {
  const out: O.FrontmatterLinkCache[] = [];
  const walk = (value: unknown, key: string): void => {
    if (typeof value === 'string') {
      const m = WHOLE_WIKILINK.exec(value.trim());
      if (!m) return;
      const { link, alias } = splitWikilink(m[1]);
      out.push({ key, link, original: value.trim(), displayText: alias ?? wikilinkDisplayText(link) });
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, `${key}.${i}`));
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, `${key}.${k}`);
    }
  };
  for (const [k, v] of Object.entries(data)) walk(v, k);
  return out;
}
