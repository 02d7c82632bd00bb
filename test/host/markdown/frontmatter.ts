import type * as O from 'obsidian';

/**
 * Frontmatter helpers with Obsidian's rules (https://help.obsidian.md/properties): a YAML
 * block fenced by `---` lines that must start on the very first line of the note (after an
 * optional UTF-8 BOM) and be closed by a later line that is exactly `---`.
 */

/**
 * Finds the end of the line starting at `start`: the index of its line break (`\n`, `\r\n`, or
 * a `\r` alone, CommonMark's line endings, which is also how CodeMirror 6, Obsidian's editor,
 * splits a document), or the text length.
 */
function lineEnd(text: string, start: number): number {
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return i;
  }
  return text.length;
}

/** The index just past the line break at `end` (`\r\n` counts as one), or `end` at the text's end. */
function nextLine(text: string, end: number): number {
  if (end >= text.length) return end;
  return text.startsWith('\r\n', end) ? end + 2 : end + 1;
}

/**
 * A line's text without its trailing `\r` and trailing spaces/tabs, in one backward pass (the
 * regex `/[\r \t]+$/` retried the run from each of its starts: 49 s of a held event loop on a
 * note whose frontmatter lines were indented by thousands of spaces).
 */
function lineText(text: string, start: number, end: number): string {
  let last = end;
  while (last > start && (text[last - 1] === '\r' || text[last - 1] === ' ' || text[last - 1] === '\t')) last--;
  return text.slice(start, last);
}

/**
 * Obsidian's `getFrontMatterInfo` (obsidian.d.ts, since 1.5.7). Takes the whole note text;
 * returns `{exists, frontmatter, from, to, contentStart}` where `frontmatter` is the YAML text
 * between the fences, `from`/`to` are its char offsets (excluding the `---` lines) and
 * `contentStart` is the offset just after the closing fence's line break. An unclosed fence
 * means no frontmatter (`exists: false`, offsets 0). Lines end at `\n`, `\r\n` or a lone `\r`
 * (see lineEnd), so a note saved with old Mac line endings has its frontmatter found too.
 * Never throws.
 */
export function getFrontMatterInfo(content: string): O.FrontMatterInfo {
  const none: O.FrontMatterInfo = { exists: false, frontmatter: '', from: 0, to: 0, contentStart: 0 };
  const start = content.charCodeAt(0) === 0xfeff ? 1 : 0;
  const firstEnd = lineEnd(content, start);
  if (lineText(content, start, firstEnd) !== '---' || firstEnd >= content.length) return none;
  const from = nextLine(content, firstEnd);
  let pos = from;
  while (pos <= content.length) {
    const end = lineEnd(content, pos);
    if (lineText(content, pos, end) === '---') {
      const contentStart = nextLine(content, end);
      return { exists: true, frontmatter: content.slice(from, pos), from, to: pos, contentStart };
    }
    if (end >= content.length) break;
    pos = nextLine(content, end);
  }
  return none;
}

/** Returns the value of the first frontmatter key matching `key` (string: exact, RegExp: test). */
export function parseFrontMatterEntry(frontmatter: any | null, key: string | RegExp): any | null {
  if (!frontmatter || typeof frontmatter !== 'object') return null;
  for (const k of Object.keys(frontmatter)) {
    if (typeof key === 'string' ? k === key : key.test(k)) {
      const v = frontmatter[k];
      if (v !== null && v !== undefined) return v;
    }
  }
  return null;
}

/**
 * Obsidian's `parseFrontMatterStringArray`: the value of the key as a list of strings. A YAML
 * list keeps its items (non-strings converted with String); a string is split on commas.
 * Empty items are dropped. Returns null when the key is absent or yields nothing.
 */
export function parseFrontMatterStringArray(frontmatter: any | null, key: string | RegExp): string[] | null {
  const value = parseFrontMatterEntry(frontmatter, key);
  if (value === null) return null;
  const items = Array.isArray(value) ? value.flatMap((v) => (v === null ? [] : [String(v)])) : String(value).split(',');
  const out = items.map((s) => s.trim()).filter((s) => s !== '');
  return out.length ? out : null;
}

/**
 * Obsidian's `parseFrontMatterTags`: tags from the `tags` or `tag` property (any case), as a
 * YAML list or a string separated by commas and/or spaces, each returned with a leading `#`.
 * Returns null when there are none.
 */
export function parseFrontMatterTags(frontmatter: any | null): string[] | null {
  const value = parseFrontMatterEntry(frontmatter, /^tags?$/i);
  if (value === null) return null;
  const raw = Array.isArray(value) ? value.flatMap((v) => (v === null ? [] : [String(v)])) : String(value).split(/[,\s]+/);
  const out = raw
    .map((t) => t.trim().replace(/^#+/, ''))
    .filter((t) => t !== '')
    .map((t) => '#' + t);
  return out.length ? out : null;
}

/**
 * Obsidian's `parseFrontMatterAliases`: the `aliases` or `alias` property (any case), a YAML
 * list or a comma-separated string. Returns null when there are none.
 */
export function parseFrontMatterAliases(frontmatter: any | null): string[] | null {
  return parseFrontMatterStringArray(frontmatter, /^alias(es)?$/i);
}

/**
 * Obsidian's `getAllTags`: frontmatter tags (see parseFrontMatterTags) followed by the inline
 * `#tags` of the body, in document order, duplicates kept, each with its leading `#`.
 */
export function getAllTags(cache: O.CachedMetadata): string[] | null {
  const tags = parseFrontMatterTags(cache.frontmatter) ?? [];
  for (const t of cache.tags ?? []) tags.push(t.tag);
  return tags;
}
