import { isDeepStrictEqual } from 'node:util';
import { stringifyYaml } from 'obsidian';
import { parseYamlOnce } from '../../content/frontmatter/parsed-yaml';
import { MERGE_KEY, withMergeKeys } from '../../content/frontmatter/yaml-merge-keys';

/**
 * Line-preserving edits of frontmatter YAML, read with the app's own `parseYaml` and written
 * with its `stringifyYaml` (so main.js carries no YAML library of its own). A patch rewrites
 * only the lines of the top-level keys it changes; every other line stays byte for byte
 * (formatting, comments, quoting, anchors), and the result is checked by parsing it again.
 */

/** One top-level `key: value` entry of a block-style mapping, by its source offsets. */
export interface TopLevelEntry {
  /**
   * The key as the app reads the entry on its own; `<<` for a merge key line (`<<: *b`), whether
   * or not the app's parser expands it; null when the entry does not parse alone (it uses an
   * alias defined elsewhere) and adds no one key in context.
   */
  key: string | null;
  /** Offset of the start of the key's line. */
  from: number;
  /** Offset just past the line break of the entry's last value line. */
  to: number;
}

/** Why a block cannot be edited line by line (a clause for an error message), or its edited text. */
export type SplicedYaml = { yaml: string } | { refusal: string };

/**
 * The top-level entries of block-style YAML: an entry starts at a line whose key begins in
 * column 0 and runs through the indented lines (and column-0 `- item` lines) that follow it;
 * blank and column-0 comment lines after its last value line belong to no entry.
 * @param source YAML text with LF line breaks, ending in a line break (or empty).
 * @returns the entries in source order, or null when the top level is not a block mapping
 *   written from column 0 (a flow mapping `{...}`, a complex `? key`, a directive or document
 *   marker, an indented first line); {@link splicedYaml} then refuses, saying which.
 */
export function topLevelEntries(source: string): TopLevelEntry[] | null {
  const scan = scanEntries(source);
  return 'refusal' in scan ? null : scan.entries;
}

/** {@link topLevelEntries}, with the reason (a clause) when the layout has no key lines to tell apart. */
function scanEntries(source: string): { entries: TopLevelEntry[] } | { refusal: string } {
  const entries: Array<{ from: number; to: number }> = [];
  let lineStart = 0;
  while (lineStart < source.length) {
    const lineEnd = source.indexOf('\n', lineStart) + 1 || source.length;
    const line = source.slice(lineStart, lineEnd).replace(/\n$/, '');
    const current = entries[entries.length - 1];
    if (line.trim() === '' || line.startsWith('#')) {
      // Blank or column-0 comment: inside the entry only if a value line follows it.
    } else if (/^[ \t]/.test(line) || /^-(\s|$)/.test(line)) {
      if (!current) return { refusal: 'the block starts with an indented or list line' };
      current.to = lineEnd;
    } else if (line.startsWith('{')) {
      return { refusal: 'the block is one flow mapping {…}' };
    } else if (/^[?[]/.test(line)) {
      return { refusal: 'the block has a complex key (? or [...])' };
    } else if (line.startsWith('%') || line === '...' || line.startsWith('--- ') || line === '---') {
      return { refusal: 'the block holds a YAML directive or document marker' };
    } else {
      entries.push({ from: lineStart, to: lineEnd });
    }
    lineStart = lineEnd;
  }
  return {
    entries: entries.map(({ from, to }) => {
      const lineEnd = source.indexOf('\n', from);
      const firstLine = source.slice(from, lineEnd < 0 || lineEnd > to ? to : lineEnd);
      return {
        key: /^<<[ \t]*:(?:[ \t]|$)/.test(firstLine)
          ? MERGE_KEY
          : (plainWordKey(firstLine) ?? soleKey(source.slice(from, to)) ?? addedKey(source.slice(0, from), source.slice(0, to))),
        from,
        to,
      };
    }),
  };
}

/**
 * A key line's key when it is a plain word followed by `: ` (or `:` ending the line): a letter
 * or `_`, then letters, digits, `_` and `-` (`status:`, `due_date:`, `key-2:`), not a word a YAML
 * schema reads as a boolean or null (`true`, `no`, `on`, `null`, ..., YAML 1.1's too). Every YAML
 * parser reads such a key as that very text, whatever follows it, so the entry need not be parsed
 * alone to learn it: what makes the splice cost one parse of the block, not one per line
 * (docs/performance.md, "Large frontmatter writes"). Other keys (quoted, numbers, spaces, other
 * scripts) are read by parsing ({@link soleKey}, {@link addedKey}); the spliced block is parsed
 * back and compared either way.
 * @param line an entry's first line, without its line break. @returns the key, or null when it is not such a word.
 */
function plainWordKey(line: string): string | null {
  const word = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]|$)/.exec(line)?.[1];
  return word === undefined || SCHEMA_WORDS.has(word.toLowerCase()) ? null : word;
}

/** Plain words some YAML schema reads as a boolean or null (YAML 1.2 core, and YAML 1.1's yes/no/on/off/y/n). */
const SCHEMA_WORDS = new Set(['true', 'false', 'null', 'yes', 'no', 'on', 'off', 'y', 'n']);

/**
 * `source` (frontmatter YAML, LF line breaks) with the lines of each `changed` top-level key
 * replaced by `data`'s value written with `stringifyYaml`, removed when `data` lacks the key,
 * or appended (in `changed` order) when the block has no line of its own for it (a new key, or
 * one only a merge key `<<` gives: its own line wins over the merge, as YAML reads it); every
 * other line is kept byte for byte. A comment ending the key's line (`status: draft  # todo`)
 * stays on the rewritten first line (`status: done  # todo`, or `status:  # todo` above a
 * block list, which YAML reads the same); comments inside a multi-line value go with the old
 * value. A key of `named` (the patch's keys) that is set to the value it has, on a line that
 * repeats an anchor of a changed line (`color: *b` when `base: &b ...` changes), is rewritten
 * too, with that value written out, so its value stays. Never falls back to writing the
 * whole block: that would reformat other properties (quoting, flow lists, comments) and can
 * change their values (`zip: 01234` read as a number comes back `1234`).
 * @param data the properties wanted, as the app's parser reads them (a `<<` key it does not
 *   expand stays in `data` as it is in the block)
 * @returns `{yaml}` (ending in a line break), or `{refusal}`, a clause saying why the lines
 *   cannot be edited alone: the layout (see {@link topLevelEntries}), a key written twice, a
 *   deleted key that a merge key `<<` would still give (with no line of its own, or with one
 *   whose removal would show the merged value), an anchor that lines left as they are repeat
 *   through an alias or a merge key, or any other spliced text that does not parse back to
 *   exactly `data` (checked with the app's `parseYaml`). Merge keys are judged expanded
 *   whether or not the app's parser expands them (content/frontmatter/yaml-merge-keys.ts).
 */
export function splicedYaml(
  source: string,
  data: Record<string, unknown>,
  changed: readonly string[],
  named: readonly string[] = changed,
): SplicedYaml {
  const original = source === '' || source.endsWith('\n') ? source : `${source}\n`;
  const scan = scanEntries(original);
  if ('refusal' in scan) return scan;
  const { entries } = scan;
  const entryText = (entry: TopLevelEntry): string => original.slice(entry.from, entry.to);
  // Entries by key, once: every lookup below is then one map read, so a patch of k keys on a
  // block of n lines costs n + k, not n × k.
  const byKey = new Map<string, TopLevelEntry[]>();
  for (const entry of entries) {
    if (entry.key === null) continue;
    const same = byKey.get(entry.key);
    if (same) same.push(entry);
    else byKey.set(entry.key, [entry]);
  }
  const rewrite = [...changed];
  const rewritten = new Set(rewrite);
  const changedAnchors = new Set(rewrite.flatMap((key) => byKey.get(key) ?? []).flatMap((entry) => anchorsIn(entryText(entry))));
  for (const key of named) {
    if (rewritten.has(key) || !Object.hasOwn(data, key)) continue;
    const entry = byKey.get(key)?.[0];
    if (entry && aliasesIn(entryText(entry)).some((name) => changedAnchors.has(name))) {
      rewrite.push(key);
      rewritten.add(key);
    }
  }
  const edits: Array<{ from: number; to: number; insert: string; order: number }> = [];
  for (const [order, key] of rewrite.entries()) {
    const stays = Object.hasOwn(data, key);
    const matches = byKey.get(key) ?? [];
    if (matches.length > 1) return { refusal: `'${key}' is written twice` };
    if (matches.length === 1) {
      const insert = stays ? stringifyYaml({ [key]: data[key] }).replace('\n', `${keyLineComment(original, matches[0])}\n`) : '';
      edits.push({ from: matches[0].from, to: matches[0].to, insert, order });
    } else if (!stays) {
      return { refusal: mergedKeyRefusal(key, entries, entryText) };
    } else {
      edits.push({ from: original.length, to: original.length, insert: stringifyYaml({ [key]: data[key] }), order });
    }
  }
  const kept = entries.filter((entry) => entry.key === null || !rewritten.has(entry.key));
  // Last position first; new keys all insert at the end, so the later one goes in first and
  // the keys end up in patch order (as in a new block).
  let text = original;
  for (const edit of edits.sort((a, b) => b.from - a.from || b.order - a.order)) {
    text = text.slice(0, edit.from) + edit.insert + text.slice(edit.to);
  }
  const parsed = parsedYaml(text);
  if (parsed.ok) {
    const shown = withMergeKeys(parsed.value);
    const stillShown = rewrite.find(
      (key) => !Object.hasOwn(data, key) && shown !== null && typeof shown === 'object' && Object.hasOwn(shown, key),
    );
    if (stillShown !== undefined) return { refusal: mergedKeyRefusal(stillShown, entries, entryText) };
    if (sameValue(parsed.value, data)) return { yaml: text };
  }
  return { refusal: anchorRefusal(entries, rewrite, kept, entryText) ?? GENERIC_REFUSAL };
}

/**
 * The refusal for deleting `key` while a merge key gives it (it has no line of its own, or
 * removing its line would show the merged value): names the merge lines (`<<: *b`) and what to
 * edit instead.
 */
function mergedKeyRefusal(key: string, entries: readonly TopLevelEntry[], entryText: (entry: TopLevelEntry) => string): string {
  const lines =
    entries
      .filter((entry) => entry.key === MERGE_KEY)
      .map((entry) => `\`${entryText(entry).split('\n')[0].trim()}\``)
      .join(', ') || '<<';
  return `the YAML merge key ${lines} gives '${key}', so the note would still show it; to delete it, remove it from the merged mapping or remove the << line, with edit_note`;
}

/** How many `#` after a blank on a key's line are tried as its comment's start (the rest stay unread). */
const COMMENT_TRIES = 8;

/**
 * A comment ending an entry's first line, with the blanks before it (`  # todo`), or ''. It
 * starts at the first `#` after a space or tab that can be cut off, with the rest of the line,
 * and leave the block reading the same (a `#` inside quotes cannot: the cut changes the value
 * or does not parse), so YAML itself says where the comment starts.
 */
function keyLineComment(source: string, entry: TopLevelEntry): string {
  const lineEnd = source.indexOf('\n', entry.from);
  const line = source.slice(entry.from, lineEnd);
  const tries = [...line.matchAll(/[ \t]+#/g)].slice(0, COMMENT_TRIES);
  if (tries.length === 0) return '';
  // A cut on the key's line changes only the entry's own value: judged on the entry alone when
  // it reads alone (a parse of a few lines, not of the whole block per try), else in the block.
  const own = source.slice(entry.from, entry.to);
  const alone = parsedYaml(own);
  const [text, from, whole] = alone.ok ? [own, 0, alone] : [source, entry.from, parsedYaml(source)];
  for (const { index } of tries) {
    const cut = parsedYaml(text.slice(0, from + index) + text.slice(from + line.length));
    if (whole.ok && cut.ok && sameValue(whole.value, cut.value)) return line.slice(index);
  }
  return '';
}

/** The refusal when a spliced block does not read back as the properties wanted, for no reason found by name. */
const GENERIC_REFUSAL = 'its lines depend on each other (a YAML anchor, alias, merge key or tag)';

/**
 * The refusal naming an anchor of a rewritten line that a kept line repeats ("property 'base'
 * holds the YAML anchor &b, which 'color' repeats (*b), ..."), or null when there is none.
 */
function anchorRefusal(
  entries: readonly TopLevelEntry[],
  rewrite: readonly string[],
  kept: readonly TopLevelEntry[],
  entryText: (entry: TopLevelEntry) => string,
): string | null {
  const rewritten = new Set(rewrite);
  // The kept entries by each alias they use, read once (not once per anchor).
  const usersOf = new Map<string, TopLevelEntry[]>();
  for (const other of kept) {
    for (const alias of new Set(aliasesIn(entryText(other)))) {
      const users = usersOf.get(alias);
      if (users) users.push(other);
      else usersOf.set(alias, [other]);
    }
  }
  for (const entry of entries) {
    if (entry.key === null || !rewritten.has(entry.key)) continue;
    for (const anchor of anchorsIn(entryText(entry))) {
      const users = usersOf.get(anchor) ?? [];
      const merge = users.find((user) => user.key === MERGE_KEY);
      if (merge) {
        return `'${entry.key}' holds the YAML anchor &${anchor}, which the merge key \`${entryText(merge).split('\n')[0].trim()}\` copies, so changing it alone would change the properties it gives too; use edit_note`;
      }
      const names = users.map((user) => (user.key === null ? 'a line below it' : `'${user.key}'`)).join(', ');
      if (names !== '') {
        return `'${entry.key}' holds the YAML anchor &${anchor}, repeated by ${names} (*${anchor}), so changing it alone would change ${names} too; set ${names} in the same call to give it its own value`;
      }
    }
  }
  return null;
}

/** Anchor names (`&name`) an entry's text defines, outside quotes and comments; a heuristic, the parse check is the guard. */
function anchorsIn(entry: string): string[] {
  return namesAfter(entry, '&');
}

/** Alias names (`*name`) an entry's text uses, outside quotes and comments; a heuristic, the parse check is the guard. */
function aliasesIn(entry: string): string[] {
  return namesAfter(entry, '*');
}

/** The names after `sigil` where a YAML node may start (line start, after a space or a flow indicator). */
function namesAfter(entry: string, sigil: '&' | '*'): string[] {
  const bare = entry
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'/g, '""')
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, ''))
    .join('\n');
  const pattern = new RegExp(`(?:^|[\\s[{,])\\${sigil}([^\\s,[\\]{}]+)`, 'gm');
  return [...bare.matchAll(pattern)].map((match) => match[1]);
}

/** `text` parsed with the app's `parseYaml` (empty text: `{}`), or `ok: false` when it does not parse. */
function parsedYaml(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: parseYamlOnce(text) ?? {} };
  } catch {
    return { ok: false };
  }
}

/**
 * True when two parsed values are deeply equal. Both are compared as structured clones, so
 * objects made in another realm (the parser's) compare by content, not by prototype.
 */
function sameValue(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(structuredClone(a), structuredClone(b));
}

/**
 * The key an entry adds to the mapping, read in context (for an entry that uses an alias
 * defined above it): the one key of `through` (the block up to the end of the entry) that
 * `before` (up to its start) lacks; null when there is not exactly one or either does not parse.
 */
function addedKey(before: string, through: string): string | null {
  try {
    const known = new Set(Object.keys((parseYamlOnce(before) as Record<string, unknown> | null) ?? {}));
    const added = Object.keys((parseYamlOnce(through) as Record<string, unknown> | null) ?? {}).filter((key) => !known.has(key));
    return added.length === 1 ? added[0] : null;
  } catch {
    return null;
  }
}

/** The one key of a YAML text holding a single `key: value` entry; null when it does not parse alone. */
function soleKey(entry: string): string | null {
  try {
    const parsed: unknown = parseYamlOnce(entry);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    const keys = Object.keys(parsed);
    return keys.length === 1 ? keys[0] : null;
  } catch {
    return null;
  }
}
