import type { Condition, Field, NotesQuery, SortKey } from './parse';
import { findPropertyKey, propertyNameKey } from '../../vault/content/frontmatter/property-names';
import { isNumberText, orderAgainst, ordersByValue } from '../query/note-filters';
import { compareDates } from '../../vault/content/frontmatter/calendar-date';

/**
 * Running a parsed `query_notes` query over plain note facts (no vault access here: the tool
 * gathers the facts of the notes the caller may read).
 */

/** What a query can ask about one note. */
export interface NoteFacts {
  /** Vault path, e.g. `Projects/Alpha/Plan.md`. */
  path: string;
  /** Last modification and creation time, epoch ms. */
  mtime: number;
  ctime: number;
  /** Size in bytes. */
  size: number;
  /** Tags with `#`, frontmatter and inline (Obsidian's getAllTags). */
  tags: string[];
  /** Frontmatter as the metadata cache parsed it. */
  frontmatter: Record<string, unknown>;
}

/** The rows a query selects, before paging. */
export interface QueryResult {
  /** Column names: `file.path` first, then the query's COLUMNS (or the fields its WHERE and SORT use). */
  columns: string[];
  /** One array of values per note, in `columns` order; a missing property is null. */
  rows: unknown[][];
  /** Notes that matched, before LIMIT. */
  total: number;
}

/** Rows returned when the query has no LIMIT. */
export const DEFAULT_QUERY_LIMIT = 50;

/** Stands for "this note has no such property" while evaluating. */
const MISSING = Symbol('missing');
/** A property's value while evaluating, MISSING included (unknown already covers the symbol). */
type Value = unknown;

/**
 * Runs `query` over `notes`.
 * @param notes the notes the caller may read
 * @returns matching notes sorted (by SORT, then path; without SORT, newest `file.mtime` first)
 *   and cut to LIMIT (default {@link DEFAULT_QUERY_LIMIT}), with the total before the cut
 */
export function runNotesQuery(query: NotesQuery, notes: readonly NoteFacts[]): QueryResult {
  const matched = query.where === null ? [...notes] : notes.filter((note) => test(query.where as Condition, note));
  const sort: SortKey[] = query.sort.length > 0 ? query.sort : [{ field: { kind: 'file', name: 'file.mtime' }, descending: true }];
  matched.sort((a, b) => {
    for (const key of sort) {
      const order = compareForSort(valueOf(a, key.field), valueOf(b, key.field), key.descending);
      if (order !== 0) return order;
    }
    return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
  });
  const fields = columnsOf(query);
  const limit = query.limit ?? DEFAULT_QUERY_LIMIT;
  const rows = matched.slice(0, limit).map((note) => [note.path, ...fields.map((f) => shown(valueOf(note, f)))]);
  return { columns: ['file.path', ...fields.map(fieldName)], rows, total: matched.length };
}

/**
 * The properties a query names (in WHERE, SORT and COLUMNS; `note.x` and quoted names too) that
 * none of `notes` has, each once, in the order the query names them: a misspelt name sorts
 * nothing and shows only nulls, and says so nowhere else. A property found on some note stops its
 * scan there, so only an absent one costs a pass over the notes.
 * @param notes the notes the caller may read (never others: the answer would tell they hold it).
 * @returns property names as the query writes them.
 */
export function propertiesNoNoteHas(query: NotesQuery, notes: readonly NoteFacts[]): string[] {
  const named = [...fieldsIn(query.where), ...query.sort.map((s) => s.field), ...(query.columns ?? [])];
  const absent: string[] = [];
  const seen = new Set<string>();
  for (const field of named) {
    if (field.kind !== 'property') continue;
    const key = propertyNameKey(field.name);
    if (seen.has(key)) continue;
    seen.add(key);
    const held = (note: NoteFacts): boolean => Object.keys(note.frontmatter).some((name) => propertyNameKey(name) === key);
    if (!notes.some(held)) absent.push(field.name);
  }
  return absent;
}

/** An order test of WHERE (`gt`, `lt`, `gte`, `lte`) whose value is text while notes hold numbers or dates there ({@link orderedAsText}). */
export interface TextOrdering {
  /** The field as the query writes it, e.g. `budget_eur`. */
  field: string;
  /** The test as a symbol: `>`, `<`, `>=` or `<=`. */
  op: string;
  /** The value compared with, neither a number nor a date, e.g. `abc`. */
  value: string;
  /** How many of `notes` hold a number or a date in that field (a list counts once). */
  notes: number;
  /** One such value as text, e.g. `1200`. */
  example: string;
}

const ORDER_SYMBOLS: Record<string, string> = { gt: '>', lt: '<', gte: '>=', lte: '<=' };

/**
 * The order tests in `query`'s WHERE whose value is neither a number nor a date (`budget_eur >
 * "abc"`) while some of `notes` hold a number or a date in that field: those values were ordered
 * as text against it (`1200` sorts before `abc`), which query_notes allows for text fields
 * (`title < "M"`) but which answers nothing useful for numbers, unsaid (session 43's newcomer;
 * search refuses such a filter outright).
 * @param notes the notes the caller may read (never others: the count would tell what they hold).
 * @returns one entry per such test, in WHERE's order; empty when there is none.
 */
export function orderedAsText(query: NotesQuery, notes: readonly NoteFacts[]): TextOrdering[] {
  const found: TextOrdering[] = [];
  for (const test of testsIn(query.where)) {
    const op = ORDER_SYMBOLS[test.op];
    if (op === undefined || test.value === null || ordersByValue(test.value)) continue;
    let count = 0;
    let example = '';
    for (const note of notes) {
      const value = valueOf(note, test.field);
      const items: readonly unknown[] = Array.isArray(value) ? value : [value];
      const ordered = items.find(
        (item) => typeof item === 'number' || item instanceof Date || (typeof item === 'string' && ordersByValue(item.trim())),
      );
      if (ordered === undefined) continue;
      count++;
      if (example === '') example = text(ordered).trim();
    }
    if (count > 0) found.push({ field: test.field.name, op, value: test.value, notes: count, example });
  }
  return found;
}

/** The tests of a WHERE condition, in order. */
function testsIn(condition: Condition | null): Array<Extract<Condition, { kind: 'test' }>> {
  if (condition === null) return [];
  if (condition.kind === 'test') return [condition];
  if (condition.kind === 'not') return testsIn(condition.child);
  return [...testsIn(condition.left), ...testsIn(condition.right)];
}

/** COLUMNS, else the distinct fields WHERE and SORT use (so the reader sees what was filtered on); `file.path` is always first and never repeated. */
function columnsOf(query: NotesQuery): Field[] {
  const listed = query.columns ?? [...fieldsIn(query.where), ...query.sort.map((s) => s.field)];
  const out: Field[] = [];
  const seen = new Set<string>(['file.path']);
  for (const field of listed) {
    const key = propertyNameKey(fieldName(field));
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(field);
  }
  return out;
}

function fieldsIn(condition: Condition | null): Field[] {
  return testsIn(condition).map((test) => test.field);
}

/** A field as a column name: `file.mtime`, or the property name as written. */
function fieldName(field: Field): string {
  return field.name;
}

/** True when `note` passes `condition`. */
function test(condition: Condition, note: NoteFacts): boolean {
  switch (condition.kind) {
    case 'and':
      return test(condition.left, note) && test(condition.right, note);
    case 'or':
      return test(condition.left, note) || test(condition.right, note);
    case 'not':
      return !test(condition.child, note);
    case 'test':
      return testValue(valueOf(note, condition.field), condition.op, condition.value ?? '', condition.field);
  }
}

/**
 * One test on one value. A list passes when any item does; a missing property passes only
 * `missing` (and the negations). Text compares case-insensitively; numbers numerically;
 * dates (`YYYY-MM-DD…`) as ISO text at the precision given (`file.mtime is 2026-01-15` is
 * that whole UTC day). An order test against a number or a date passes no value that is
 * neither (text such as `abc` or `March 3`), as search's `[prop:>5]` passes none.
 */
function testValue(value: Value, op: string, wanted: string, field: Field): boolean {
  if (op === 'exists') return value !== MISSING;
  if (value === MISSING) return false;
  const target = field.kind === 'file' && field.name === 'file.tags' && op !== 'contains' ? withHash(wanted) : wanted;
  const items = Array.isArray(value) ? value : [value];
  switch (op) {
    case 'is':
      return items.some((item) => compare(item, target) === 0) || (isEmpty(value) && (target === '' || target.toLowerCase() === 'null'));
    case 'contains':
      return items.some((item) => item !== null && text(item).toLowerCase().includes(target.toLowerCase()));
    case 'under':
      return items.some((item) => isUnder(text(item), target));
    default:
      return items.some((item) => {
        // A number or a date orders only numbers or dates (as search's filters do): `s > 5` passed "abc" ("abc" > "5" as text).
        const order = ordersByValue(target) ? orderAgainst(item, target) : compare(item, target);
        if (order === null) return false;
        return op === 'gt' ? order > 0 : op === 'lt' ? order < 0 : op === 'gte' ? order >= 0 : order <= 0;
      });
  }
}

/** How `item` compares to the literal `wanted`: -1, 0, 1, or null when they cannot be compared. */
function compare(item: unknown, wanted: string): number | null {
  if (item === null || item === undefined || typeof item === 'object') return null;
  const value = text(item).trim();
  if (isNumberText(wanted) && (typeof item === 'number' || isNumberText(value))) return Math.sign(Number(value) - Number(wanted));
  const dates = compareDates(value, wanted);
  if (dates !== null) return dates;
  const a = value.normalize('NFC').toLowerCase();
  const b = wanted.normalize('NFC').toLowerCase();
  return a < b ? -1 : a > b ? 1 : 0;
}

/** True when `path` is the folder `folder` or inside it (case-insensitive; `""` or `"/"` is the vault root). */
function isUnder(path: string, folder: string): boolean {
  const f = folder
    .replace(/^\/+|\/+$/g, '')
    .normalize('NFC')
    .toLowerCase();
  const p = path
    .replace(/^\/+|\/+$/g, '')
    .normalize('NFC')
    .toLowerCase();
  return f === '' || p === f || p.startsWith(f + '/');
}

/**
 * Sort order of two values: missing and empty values last whatever the direction, numbers numerically (a number
 * written as text too, `"100"`, as the comparisons take it: `"9"` before `12` before `"100"`), then text.
 */
function compareForSort(a: Value, b: Value, descending: boolean): number {
  const ka = sortKey(a);
  const kb = sortKey(b);
  if (ka === null || kb === null) return ka === kb ? 0 : ka === null ? 1 : -1;
  let order: number;
  if (typeof ka === 'number' && typeof kb === 'number') order = ka - kb;
  else order = String(ka).localeCompare(String(kb));
  return descending ? -order : order;
}

function sortKey(value: Value): number | string | null {
  if (value === MISSING || isEmpty(value)) return null;
  const first: unknown = Array.isArray(value) ? value[0] : value;
  if (typeof first === 'number') return first;
  if (typeof first === 'boolean') return first ? 1 : 0;
  const shown = text(first).trim();
  return isNumberText(shown) ? Number(shown) : shown.toLowerCase();
}

/** The value of `field` for `note`; MISSING for a property the note lacks. */
function valueOf(note: NoteFacts, field: Field): Value {
  if (field.kind === 'property') {
    const key = findPropertyKey(note.frontmatter, field.name);
    return key === undefined ? MISSING : note.frontmatter[key];
  }
  const slash = note.path.lastIndexOf('/');
  const name = note.path.slice(slash + 1);
  const dot = name.lastIndexOf('.');
  switch (field.name) {
    case 'file.name':
      return name;
    case 'file.basename':
      return dot > 0 ? name.slice(0, dot) : name;
    case 'file.path':
      return note.path;
    case 'file.folder':
      return slash < 0 ? '/' : note.path.slice(0, slash);
    case 'file.ext':
      return dot > 0 ? name.slice(dot + 1) : '';
    case 'file.mtime':
      return new Date(note.mtime).toISOString();
    case 'file.ctime':
      return new Date(note.ctime).toISOString();
    case 'file.size':
      return note.size;
    case 'file.tags':
      return note.tags;
  }
}

/** A value as a row shows it: missing → null, everything else as the frontmatter holds it. */
function shown(value: Value): unknown {
  return value === MISSING || value === undefined ? null : value;
}

function text(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}

function withHash(tag: string): string {
  return tag.startsWith('#') ? tag : `#${tag}`;
}
