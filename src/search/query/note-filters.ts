import type { PropertyTest } from './parser/query-ast';
import { findPropertyKey } from '../../vault/content/frontmatter/property-names';
import { compareDates, isDateAtSomePrecision } from '../../vault/content/frontmatter/calendar-date';

/**
 * What the search filters know about one note without reading its text: the fields the
 * index keeps per note. Built from NoteStore (path, id, title, tags, frontmatter from the
 * metadata cache).
 */
export interface NoteRecord {
  /** Vault-relative path with extension, e.g. `Plugins/Canvas.md`. */
  path: string;
  /** The note id: frontmatter `id`, else `path:<path>`. */
  id: string;
  title: string;
  /** Tags lower-cased, without the leading `#`, e.g. `project/alpha`. */
  tags: string[];
  /** Parsed frontmatter (YAML) as the metadata cache gives it. */
  frontmatter: Record<string, unknown>;
}

/**
 * `path:text` — the vault-relative path contains `text`, case-insensitively and compared in
 * Unicode NFC. (`path:/re/` runs through a `RegexGuard` instead; see `lexical-engine.ts`.)
 * @returns true when the note passes.
 */
export function matchPath(note: NoteRecord, text: string): boolean {
  return containsText(note.path, text);
}

/**
 * `file:text` — the file name with extension (see {@link fileName}) contains `text`,
 * case-insensitively and compared in Unicode NFC.
 */
export function matchFile(note: NoteRecord, text: string): boolean {
  return containsText(fileName(note.path), text);
}

/** The last segment of a vault path, extension included: `Plugins/Canvas.md` → `Canvas.md`. */
export function fileName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The char code of `/`, which nests tags. */
const SLASH = 0x2f;

/**
 * `tag:x` — the note has tag `x` or a nested tag `x/...` (Obsidian Help, "Tags" → "Nested
 * tags": searching a parent tag finds its children). `tag` is lower-case without `#`.
 */
export function matchTag(note: NoteRecord, tag: string): boolean {
  for (const t of note.tags) if (isTagOrNested(t, tag)) return true;
  return false;
}

/**
 * True when the note tag `t` is `tag` or nested under it (`tag/...`), as {@link matchTag} reads
 * `tag:`. `tag/` is tested by its slash and prefix: no string built per tag and note.
 */
export function isTagOrNested(t: string, tag: string): boolean {
  return t === tag || (t.length > tag.length && t.charCodeAt(tag.length) === SLASH && t.startsWith(tag));
}

/** A property test decided without running a user regex (`regex` tests go through {@link propertyStrings} and a RegexGuard). */
export type PlainPropertyTest = Exclude<PropertyTest, { op: 'regex' }>;

/**
 * A property filter on the frontmatter; the key is found ignoring case and Unicode form (findPropertyKey).
 * - exists: the key is present (any value, even empty).
 * - null: the key is present without a value (YAML `key:`), as Obsidian Help ("Search
 *   properties") documents `[prop:null]`: not for `""` or `[]`.
 * - contains: the value, or any list item, contains the text case-insensitively.
 * - compare: numbers compare numerically; `YYYY-MM-DD...` dates compare as ISO strings
 *   (time zone free); `=` otherwise compares the text case-insensitively. A list passes
 *   when any item does. Values that cannot be compared do not pass.
 */
export function matchProperty(note: NoteRecord, name: string, test: PlainPropertyTest): boolean {
  const key = propertyKey(note, name);
  if (key === undefined) return false;
  if (test.op === 'exists') return true;
  const value = note.frontmatter[key];
  if (test.op === 'null') return value === null || value === undefined;
  const items = Array.isArray(value) ? value : [value];
  if (test.op === 'contains') {
    const wanted = test.value.toLowerCase();
    return items.some((item) => item !== null && item !== undefined && stringify(item).toLowerCase().includes(wanted));
  }
  return items.some((item) => compareItem(item, test.cmp, test.value));
}

/**
 * The strings a `[name:/regex/]` test looks at: the value, or each list item, as text (a
 * date as its ISO form); none when the key is missing or has no value.
 */
export function propertyStrings(note: NoteRecord, name: string): string[] {
  const key = propertyKey(note, name);
  if (key === undefined) return [];
  const value = note.frontmatter[key];
  const items = Array.isArray(value) ? value : [value];
  return items
    .filter((item) => item !== null && item !== undefined)
    .map((item) => (item instanceof Date ? item.toISOString() : stringify(item)));
}

/** The note's key for the property `name`: ignoring case and Unicode form (content/frontmatter/property-names.ts findPropertyKey). */
function propertyKey(note: NoteRecord, name: string): string | undefined {
  return findPropertyKey(note.frontmatter, name);
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}/;

/** True when `text` is a number as search and query_notes compare numbers: `5`, `-1.5`, `.5`, `2e3` (no hex, no spaces). */
export function isNumberText(text: string): boolean {
  return NUMBER.test(text);
}

/** True when `text` starts like an ISO 8601 date, `YYYY-MM-DD` (a time may follow), as dates compare. */
export function startsWithDate(text: string): boolean {
  return ISO_DATE.test(text);
}

/**
 * True when a `[prop:>value]` test (or `<`, `>=`, `<=`) can order notes by `value`: a number
 * (`5`, `-1.5`, `2e3`), a date to some precision (calendar-date.ts isDateAtSomePrecision), or a
 * quoted text that starts like a date (compared as text). Any other value orders nothing
 * (see {@link matchProperty}), so the query parser refuses it rather than answer no notes.
 */
export function ordersByValue(value: string): boolean {
  return isNumberText(value) || isDateAtSomePrecision(value) || startsWithDate(value);
}

/**
 * How a property value `item` orders against `wanted`, a number or a date ({@link ordersByValue}):
 * numbers numerically (a number written as text too), dates at the precision of the less precise
 * side (compareDates: a date-time on a date's day is that date). Search's `[prop:>5]` and
 * query_notes' order tests both use it.
 * @returns -1, 0 or 1; null when `item` is neither (text such as `abc`, a list, a number against a date), which orders nothing.
 */
export function orderAgainst(item: unknown, wanted: string): number | null {
  if (item === null || item === undefined) return null;
  const text = valueText(item);
  if (NUMBER.test(wanted) && (typeof item === 'number' || NUMBER.test(text))) return Math.sign(Number(text) - Number(wanted));
  return compareDates(text, wanted);
}

/** A property value as text for comparing: a Date as ISO, anything else stringified and trimmed. */
function valueText(item: unknown): string {
  return item instanceof Date ? item.toISOString() : stringify(item).trim();
}

function compareItem(item: unknown, cmp: string, wanted: string): boolean {
  if (item === null || item === undefined) return false;
  const order = orderAgainst(item, wanted);
  if (order === null) return cmp === '=' && valueText(item).toLowerCase() === wanted.toLowerCase();
  switch (cmp) {
    case '>':
      return order > 0;
    case '<':
      return order < 0;
    case '>=':
      return order >= 0;
    case '<=':
      return order <= 0;
    default:
      return order === 0;
  }
}

function containsText(value: string, text: string): boolean {
  return value.normalize('NFC').toLowerCase().includes(text.normalize('NFC').toLowerCase());
}

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint' || value === undefined) return String(value);
  return JSON.stringify(value) ?? '';
}
