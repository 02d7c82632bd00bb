import { isDeepStrictEqual } from 'node:util';
import { parseYaml, stringifyYaml } from 'obsidian';

/**
 * Line-preserving edits of frontmatter YAML, read with the app's own `parseYaml` and written
 * with its `stringifyYaml` (so main.js carries no YAML library of its own). A patch rewrites
 * only the lines of the top-level keys it changes; every other line stays byte for byte
 * (formatting, comments, quoting, anchors), and the result is checked by parsing it again.
 */

/** One top-level `key: value` entry of a block-style mapping, by its source offsets. */
export interface TopLevelEntry {
  /** The key as the app reads the entry on its own; null when the entry does not parse alone (it uses an alias defined elsewhere). */
  key: string | null;
  /** Offset of the start of the key's line. */
  from: number;
  /** Offset just past the line break of the entry's last value line. */
  to: number;
}

/**
 * The top-level entries of block-style YAML: an entry starts at a line whose key begins in
 * column 0 and runs through the indented lines (and column-0 `- item` lines) that follow it;
 * blank and column-0 comment lines after its last value line belong to no entry.
 * @param source YAML text with LF line breaks, ending in a line break (or empty).
 * @returns the entries in source order, or null when the top level is not a block mapping
 *   written from column 0 (a flow mapping `{...}`, a complex `? key`, a directive or document
 *   marker, an indented first line), so the caller re-renders the block instead.
 */
export function topLevelEntries(source: string): TopLevelEntry[] | null {
  const entries: Array<{ from: number; to: number }> = [];
  let lineStart = 0;
  while (lineStart < source.length) {
    const lineEnd = source.indexOf('\n', lineStart) + 1 || source.length;
    const line = source.slice(lineStart, lineEnd).replace(/\n$/, '');
    const current = entries[entries.length - 1];
    if (line.trim() === '' || line.startsWith('#')) {
      // Blank or column-0 comment: inside the entry only if a value line follows it.
    } else if (/^[ \t]/.test(line) || /^-(\s|$)/.test(line)) {
      if (!current) return null;
      current.to = lineEnd;
    } else if (/^[?{[%]/.test(line) || line === '...' || line.startsWith('--- ') || line === '---') {
      return null;
    } else {
      entries.push({ from: lineStart, to: lineEnd });
    }
    lineStart = lineEnd;
  }
  return entries.map(({ from, to }) => ({
    key: soleKey(source.slice(from, to)) ?? addedKey(source.slice(0, from), source.slice(0, to)),
    from,
    to,
  }));
}

/**
 * `source` (frontmatter YAML, LF line breaks) with the lines of each `changed` top-level key
 * replaced by `data`'s value written with `stringifyYaml`, removed when `data` lacks the key,
 * or appended (in `changed` order) when the block lacks it; every other line is kept.
 * @param old the block's current properties (as parsed) @param data the properties wanted
 * @returns the new YAML (ending in a line break), or null when the lines of a key cannot be
 *   told apart (see {@link topLevelEntries}, duplicate keys) or the spliced text would not parse
 *   back to exactly `data`; the caller then re-renders the whole block.
 */
export function splicedYaml(
  source: string,
  old: Record<string, unknown>,
  data: Record<string, unknown>,
  changed: readonly string[],
): string | null {
  let text = source === '' || source.endsWith('\n') ? source : `${source}\n`;
  const entries = topLevelEntries(text);
  if (!entries) return null;
  const edits: Array<{ from: number; to: number; insert: string; order: number }> = [];
  for (const [order, key] of changed.entries()) {
    const insert = key in data ? stringifyYaml({ [key]: data[key] }) : '';
    const matches = entries.filter((entry) => entry.key === key);
    if (matches.length > 1) return null;
    if (matches.length === 1) {
      edits.push({ from: matches[0].from, to: matches[0].to, insert, order });
    } else if (key in old || entries.some((entry) => entry.key === null)) {
      return null;
    } else {
      edits.push({ from: text.length, to: text.length, insert, order });
    }
  }
  // Last position first; new keys all insert at the end, so the later one goes in first and
  // the keys end up in patch order (as in a new block).
  for (const edit of edits.sort((a, b) => b.from - a.from || b.order - a.order)) {
    text = text.slice(0, edit.from) + edit.insert + text.slice(edit.to);
  }
  return parsesTo(text, data) ? text : null;
}

/**
 * True when `text` parses (with the app's `parseYaml`) to a value deeply equal to `data` (empty
 * text: `{}`). Both sides are compared as structured clones, so objects made in another realm
 * (the parser's) compare by content, not by prototype.
 */
function parsesTo(text: string, data: Record<string, unknown>): boolean {
  try {
    const parsed: unknown = parseYaml(text) ?? {};
    return isDeepStrictEqual(structuredClone(parsed), structuredClone(data));
  } catch {
    return false;
  }
}

/**
 * The key an entry adds to the mapping, read in context (for an entry that uses an alias
 * defined above it): the one key of `through` (the block up to the end of the entry) that
 * `before` (up to its start) lacks; null when there is not exactly one or either does not parse.
 */
function addedKey(before: string, through: string): string | null {
  try {
    const known = new Set(Object.keys((parseYaml(before) as Record<string, unknown> | null) ?? {}));
    const added = Object.keys((parseYaml(through) as Record<string, unknown> | null) ?? {}).filter((key) => !known.has(key));
    return added.length === 1 ? added[0] : null;
  } catch {
    return null;
  }
}

/** The one key of a YAML text holding a single `key: value` entry; null when it does not parse alone. */
function soleKey(entry: string): string | null {
  try {
    const parsed: unknown = parseYaml(entry);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    const keys = Object.keys(parsed);
    return keys.length === 1 ? keys[0] : null;
  } catch {
    return null;
  }
}
