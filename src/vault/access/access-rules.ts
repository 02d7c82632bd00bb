import { isMapping, MERGE_KEY, mergeSources, walkOnce } from '../content/frontmatter/yaml-merge-keys';
import { ACCESS_KEY, AGENT_OVERRIDES_KEY, ruleKeyOf } from './rule-keys';
import { isPathInside } from '../paths/paths';

/**
 * What a key may do with one note, from its frontmatter
 * (docs/architecture.md#trust-model): `private` behaves as missing for every tool, `read-only` refuses writes,
 * `read-write` is the default.
 */
export type NoteAccess = 'private' | 'read-only' | 'read-write';

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
 * list takes its strictest entry (lists in it too, each shared list once: an alias cycle ends
 * where it comes back). Anything else (an unknown word such as the typo `privat`, an empty
 * value, a number, `true`, an empty list) → private: a rule the plugin cannot read is taken
 * at its strictest, as in a frontmatter block that does not parse ({@link unparsedBlockAccess}),
 * so a mistyped rule never opens a note (docs/security.md#access-rules-in-frontmatter).
 */
export function parseAccessValue(value: unknown): NoteAccess {
  if (!Array.isArray(value)) return accessWord(value);
  let level: NoteAccess = 'read-write';
  walkOnce(value, (list, next) => {
    const items = list as unknown[];
    if (items.length === 0) level = 'private';
    for (const item of items) {
      if (Array.isArray(item)) next(item);
      else level = stricter(level, accessWord(item));
    }
  });
  return level;
}

/** The level one access word names ({@link parseAccessValue}); anything but a known word → private. */
function accessWord(value: unknown): NoteAccess {
  if (typeof value !== 'string') return 'private';
  const word = value
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
  return LEVEL_WORDS.get(word) ?? 'private';
}

/**
 * Combines the note's `access` with `agent_overrides[label]` (label matched exactly, as in
 * {@link AccessScope.label}, in either Unicode form: an entry spelling `Café bot` in NFD names the
 * key labelled `Café bot` in NFC, and the other way round); an override can only tighten, never loosen. Property names
 * compare without case ({@link ruleKeyOf}: `Access:` is `access:`), and when several spellings
 * are present the strictest value wins. Read at its strictest, as a rule the plugin cannot read
 * elsewhere (docs/security.md#access-rules-in-frontmatter):
 * - an `agent_overrides` that is no mapping: a list's mappings are read as the mapping is, and
 *   any text in it (a whole text value, a list item) that holds the label makes the note
 *   private for that key (`agent_overrides: "Claude: no-access"` is what a text property holds);
 * - a YAML merge key (`<<: {access: private}`, `<<: *rules`), which a parser may or may not
 *   expand: the rules of every mapping it brings in, at any depth, count as the note's own,
 *   even where a parser that expands it would show the note's own value instead.
 * Each object is read once however many aliases share it (yaml-merge-keys walkOnce), so a
 * frontmatter of nested shared aliases is judged in time linear in its size.
 * @param frontmatter the note's frontmatter (metadata cache), or undefined when it has none.
 * @param label the calling key's label.
 */
export function noteAccess(frontmatter: Record<string, unknown> | undefined, label: string): NoteAccess {
  if (!frontmatter) return 'read-write';
  let level: NoteAccess = 'read-write';
  const tighten = (next: NoteAccess): void => {
    level = stricter(level, next);
  };
  // Objects of agent_overrides values read so far (several spellings or merged mappings may share them).
  let overrides: Set<object> | undefined;
  walkOnce(frontmatter, (mapping, next) => {
    // Keys, not entries: no [key, value] pair per property (a 20,000-key mapping is read several times per write).
    for (const key of Object.keys(mapping)) {
      const rule = ruleKeyOf(key);
      if (rule === null) continue;
      const value = (mapping as Record<string, unknown>)[key];
      if (rule === ACCESS_KEY) tighten(parseAccessValue(value));
      else if (rule === AGENT_OVERRIDES_KEY && label) readOverrides(value, labelForms(label), tighten, (overrides ??= new Set()));
      else if (rule === MERGE_KEY) for (const source of mergeSources(value)) if (isMapping(source)) next(source);
    }
  });
  return level;
}

/**
 * The spellings a key label is looked for in: as given and in NFC ({@link noteAccess}). A text or
 * key is compared as written and in NFC against both, so a match of either form counts (only tightens).
 */
function labelForms(label: string): { label: string; nfc: string } {
  return { label, nfc: label.normalize('NFC') };
}

/** True when `text` holds the label in either Unicode form (as written, or once both are NFC). */
function holdsLabel(text: string, forms: { label: string; nfc: string }): boolean {
  return text.includes(forms.label) || text.normalize('NFC').includes(forms.nfc);
}

/**
 * Reads what an `agent_overrides` value says for the label (see {@link noteAccess}) into
 * `tighten`: a text holding the label → private; a mapping's entries for the label (its key as
 * written or in NFC); a list's items and a mapping's merge key `<<`, followed at any depth, each
 * object once across the note (`entered`).
 */
function readOverrides(
  value: unknown,
  forms: { label: string; nfc: string },
  tighten: (level: NoteAccess) => void,
  entered: Set<object>,
): void {
  // The value as the one item of a list, so a text at the top is read as a text in a list is.
  walkOnce(
    [value],
    (node, next) => {
      let items: readonly unknown[] = [];
      if (Array.isArray(node)) items = node;
      else if (isMapping(node)) {
        for (const key of Object.keys(node))
          if (key === forms.label || key.normalize('NFC') === forms.nfc) tighten(parseAccessValue(node[key]));
        if (Object.hasOwn(node, MERGE_KEY)) items = [node[MERGE_KEY]];
      }
      for (const item of items) {
        if (typeof item === 'string' && holdsLabel(item, forms)) tighten('private');
        else next(item);
      }
    },
    undefined,
    entered,
  );
}

/**
 * One place where a frontmatter block that does not parse names a protected key, found by
 * {@link unparsedRules}.
 */
export interface UnparsedRule {
  /** The key it names: `access` or `agent_overrides`. */
  name: typeof ACCESS_KEY | typeof AGENT_OVERRIDES_KEY;
  /** The index of the key's line in the block (lines split at `\n`, `\r\n` or `\r`). */
  line: number;
  /** Where the key's value may start on its line (a UTF-16 index): after the key and its `:`. */
  from: number;
  /** The indexes of the lines under the key that may hold its value too ({@link valueLines}). */
  under: number[];
  /**
   * The raw text that may hold its value, trimmed: the rest of the key's line after the key
   * (and its `:`), then the lines under it (see {@link valueLines}); blank and comment-only
   * lines are left out.
   */
  value: string[];
}

/**
 * Every place a frontmatter block that does not parse names `access` or `agent_overrides` as
 * a key, in any position and any spelling the parsed path ({@link noteAccess}) would match:
 * trimmed and without case, plain or quoted (`"access":`, `'Access' :`, a double-quoted key
 * with YAML escapes such as `"acc\x65ss"`), at any indentation, after list markers
 * (`- access:`), inside a flow mapping or sequence (`{access: …}`, `[x, access: …]`, even on a
 * line that does not close), with or without a space after the `:` (`access:private`), as
 * an explicit key (`? access` then `: private`, or `?` on a line of its own above the key),
 * and in a `#` comment too (a block that does not parse cannot be trusted to say where its
 * comments begin). A name that is only part of a longer key (`accessible:`, `my_access:`,
 * `Remote access:`) or a word in a value (`title: access notes`) is not a key.
 * @param block the raw YAML between the `---` lines (line breaks `\n`, `\r\n` or `\r`).
 * @returns the places in block order, each with the text that may hold its value; empty when none.
 */
export function unparsedRules(block: string): UnparsedRule[] {
  const lines = block.replace(/\r\n?/g, '\n').split('\n');
  const rules: UnparsedRule[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    // Cheap pre-check: a line naming neither word (in any case) holds no protected key.
    if (!/access|agent|\\/i.test(line)) continue;
    KEY_TOKEN.lastIndex = 0;
    for (let m = KEY_TOKEN.exec(line); m; m = KEY_TOKEN.exec(line)) {
      const token = m[1];
      const colon = m[2] ?? '';
      const at = m.index + m[0].length - token.length - colon.length;
      KEY_TOKEN.lastIndex = at + token.length;
      const name = ruleKeyOf(keyText(token));
      if (name !== ACCESS_KEY && name !== AGENT_OVERRIDES_KEY) continue;
      const before = line.slice(0, at);
      // After a plain word the name ends a longer key (`Remote access:`); after `-`, `?`, `&anchor`, `!tag`, `#`, `:` or a flow indicator it is one.
      if (endsWithPlainWord(before)) continue;
      const from = at + token.length + colon.length;
      const rest = line.slice(from);
      if (colon === '' && !isExplicitKey(lines, i, before, rest)) continue;
      const under = valueLines(lines, i, at);
      const value = [rest.trim(), ...under.map((j) => lines[j].trim())];
      rules.push({ name, line: i, from, under, value: value.filter((part) => part !== '' && !part.startsWith('#')) });
    }
  }
  return rules;
}

/**
 * A key candidate on one line: a double- or single-quoted scalar, or a run of plain
 * characters, at the line's start or after whitespace, `{`, `[` or `,`; group 2 is the `:`
 * after it (with any space before), when there is one.
 */
const KEY_TOKEN = /(?:^|[\s{[,])("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s"'{}[\],:]+)(\s*:)?/g;

/** A key candidate's text as a parser reads it: quotes and YAML escapes undone (compared by {@link ruleKeyOf}, as the parsed path compares it). */
function keyText(token: string): string {
  if (token.startsWith('"')) return unescapeDoubleQuoted(token.slice(1, -1));
  if (token.startsWith("'")) return token.slice(1, -1).replace(/''/g, "'");
  return token;
}

/**
 * YAML's double-quoted escapes undone as far as comparing names needs: `\x65`, `\u0065` and
 * `\U00000065` give their character, the escapes of spaces and line breaks (`\t`, `\ `, `\_`,
 * `\n`, `\N`, `\L`, `\P`, …) a space (which trimming removes, as it removes the real ones), any
 * other the character after the backslash.
 */
function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[^])/g, (all, esc: string) => {
    if (esc.length > 1) {
      const code = parseInt(esc.slice(1), 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : all;
    }
    return /[\s_tnvfrNLP]/.test(esc) ? ' ' : esc;
  });
}

/**
 * True when the text before a key candidate on its line ends with a plain word and then
 * whitespace (`Remote ` in `Remote access:`): the candidate is the end of a longer key. A
 * word that starts with `-`, `?`, `#`, `&`, `!` or `:` (a list marker, an explicit key, a
 * comment, an anchor, a tag) or ends with `:` (a value position) does not count; nor does the
 * line's start, `{`, `[` or `,` right before the candidate. Linear in `before`.
 */
function endsWithPlainWord(before: string): boolean {
  let end = before.length;
  while (end > 0 && /\s/.test(before[end - 1])) end--;
  if (end === before.length || end === 0) return false;
  let start = end;
  while (start > 0 && !/[\s{[,]/.test(before[start - 1])) start--;
  const word = before.slice(start, end);
  return word !== '' && !/^[-?#&!:]/.test(word) && !word.endsWith(':');
}

/**
 * True when a candidate with no `:` after it is an explicit key: alone on its line but for list
 * markers and a comment, with `?` before it there or on the line above, or a line starting
 * with `:` (its value) right below it.
 */
function isExplicitKey(lines: readonly string[], i: number, before: string, rest: string): boolean {
  if (!/^\s*(#.*)?$/.test(rest) || !/^[\s?-]*$/.test(before)) return false;
  return before.includes('?') || /(^|\s)\?$/.test((lines[i - 1] ?? '').trim()) || /^:(\s|$)/.test((lines[i + 1] ?? '').trim());
}

/**
 * The indexes of the lines after line `i` that may hold the value of a key starting at
 * column `column`: each more indented than the key, a `- ` item indented as the key, or an
 * explicit value (`: …`) indented no more than it, until the first other line; blank and
 * comment-only lines are passed over.
 */
function valueLines(lines: readonly string[], i: number, column: number): number[] {
  const out: number[] = [];
  for (let j = i + 1; j < lines.length; j++) {
    const t = lines[j].trim();
    if (t === '' || t.startsWith('#')) continue;
    const indent = lines[j].length - lines[j].trimStart().length;
    const item = /^-(\s|$)/.test(t);
    const explicit = /^:(\s|$)/.test(t);
    if (indent > column || (item && indent === column) || (explicit && indent <= column)) out.push(j);
    else break;
  }
  return out;
}

/**
 * The access level named by a frontmatter block that does not parse as YAML (the metadata
 * cache then has no frontmatter, so {@link noteAccess} would see none), failing closed: every
 * place the block names `access` or `agent_overrides` as a key ({@link unparsedRules}: any
 * indentation, flow mappings, quoted and explicit keys, any case) counts, and each is read at
 * its strictest. An `access` value is read word by word (`,`-separated, quotes and brackets
 * dropped, a `# comment` outside quotes dropped), from the rest of its line and the lines
 * under it; a value that cannot be read (no value, an unknown word, a quote or bracket that
 * does not close on its line, an alias) counts as `private`. An `agent_overrides` entry counts
 * for `label` wherever the label appears in its value (or anywhere in the block when that
 * value holds an alias), read from the text after the label the same way; an entry whose value
 * cannot be read counts as `private` for that label.
 * @param block the raw YAML between the `---` lines. @param label the calling key's label.
 * @returns the strictest level named, or null when the block names no access key.
 */
export function unparsedBlockAccess(block: string, label: string): NoteAccess | null {
  const rules = unparsedRules(block);
  if (rules.length === 0) return null;
  const lines = block.replace(/\r\n?/g, '\n').split('\n');
  const levels: NoteAccess[] = [];
  for (const rule of rules) {
    if (rule.name === ACCESS_KEY) levels.push(unparsedValue(rule.value));
    else if (label) levels.push(...overrideLevels(rule, lines, label));
  }
  return strictest(levels);
}

/**
 * The levels an unparseable `agent_overrides` value gives `label`: one per line of the value
 * naming the label (as written or with YAML escapes undone, each also in NFC, the label in either
 * form: {@link readings}), read from the text after it on
 * its line, or, when nothing follows it there, from the lines under that line
 * ({@link valueLines}; none → `private`). When the value holds an alias (`*name`), every line
 * of the block is searched, since the mapping may be anchored anywhere in it.
 */
function overrideLevels(rule: UnparsedRule, lines: readonly string[], label: string): NoteAccess[] {
  const aliased = rule.value.some((part) => /(^|[\s{[,:])\*\S/.test(part));
  const searched = aliased ? lines.map((_, i) => i) : [rule.line, ...rule.under];
  const levels: NoteAccess[] = [];
  for (const i of searched) {
    const raw = i === rule.line && !aliased ? lines[i].slice(rule.from) : lines[i];
    const unescaped = unescapeDoubleQuoted(raw);
    // As written and in NFC, for the label in either form: every match counts (only tightens).
    for (const [text, name] of readings([raw, unescaped, raw.normalize('NFC'), unescaped.normalize('NFC')], label)) {
      const at = text.indexOf(name);
      if (at < 0) continue;
      const after = text
        .slice(at + name.length)
        .replace(/^["']?\s*:?/, '')
        .trim();
      if (after !== '' && !after.startsWith('#')) {
        levels.push(unparsedValue([after]));
      } else {
        const under = valueLines(lines, i, lines[i].length - lines[i].trimStart().length).map((j) => lines[j].trim());
        levels.push(unparsedValue(under.filter((part) => part !== '' && !part.startsWith('#'))));
      }
    }
  }
  return levels;
}

/** Each distinct `[text, label]` pair of `texts` and `label` as given and in NFC (overrideLevels' readings). */
function readings(texts: readonly string[], label: string): Array<[string, string]> {
  const out = new Map<string, [string, string]>();
  for (const text of texts) for (const name of [label, label.normalize('NFC')]) out.set(`${text}\u0000${name}`, [text, name]);
  return [...out.values()];
}

/**
 * The level one unparseable value names, read as {@link parseAccessValue} reads a list: each
 * part with leading `-`, `:` and `?` markers and a `# comment` (outside quotes) dropped, then
 * split at commas, quotes and brackets dropped from each word. No words, or a part whose
 * quotes or brackets do not close (the value goes on where it cannot be read), or an alias
 * (`*name`) → `private`.
 */
function unparsedValue(parts: readonly string[]): NoteAccess {
  const words: string[] = [];
  for (const part of parts) {
    const text = withoutComment(part.replace(/^[\s:?-]+/, ''));
    if (text === null || /(^|[\s{[,])[*&!]/.test(text)) return 'private';
    for (const word of text.split(',')) {
      const w = word.replace(/["'[\]{}]/g, '').trim();
      if (w !== '') words.push(w);
    }
  }
  return parseAccessValue(words);
}

/**
 * `text` without a trailing `# comment` (a `#` at the start or after whitespace, outside
 * quotes). @returns null when a quote opened in `text` does not close in it, or when more `[`
 * and `{` open than `]` and `}` close before the comment (the value goes on past the line).
 */
function withoutComment(text: string): string | null {
  const masked = text.replace(/"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'/g, (quoted) => '_'.repeat(quoted.length));
  const hash = masked.search(/(^|\s)#/);
  const kept = hash < 0 ? masked : masked.slice(0, hash);
  const count = (re: RegExp): number => kept.match(re)?.length ?? 0;
  return /["']/.test(kept) || count(/[[{]/g) > count(/[\]}]/g) ? null : text.slice(0, hash < 0 ? text.length : hash);
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

/** The stricter of two levels. */
function stricter(a: NoteAccess, b: NoteAccess): NoteAccess {
  return STRICTNESS[b] > STRICTNESS[a] ? b : a;
}

/** The strictest of `levels` (`read-write` when there are none). */
function strictest(levels: NoteAccess[]): NoteAccess {
  return levels.reduce<NoteAccess>(stricter, 'read-write');
}
