import { bodyStart } from '../../../vault/content/note-body';

/**
 * How a note becomes the texts of the index's fields (TermIndex: one string per field
 * number), and what each field weighs.
 */

/**
 * The indexed fields, in field-number order, with their BM25F weights: a term in the title,
 * an alias, a heading or a tag says more about what the note is about than one in the body;
 * other frontmatter values (`properties`: descriptions, permalinks, CSS classes) say less.
 * BM25F adds the weighted frequencies before one saturation, so a field must weigh several
 * times the body to count against a body that repeats the word (title 6 chosen over 3 on the
 * bench's help questions: it puts "Sync your notes across devices" first for "how to sync
 * notes between devices" and changes no other answer's top 5).
 * Changing the list or its order needs a new INDEX_FORMAT.
 */
export const FIELDS = [
  { name: 'title', boost: 6 },
  { name: 'path', boost: 1.5 },
  { name: 'body', boost: 1 },
  { name: 'headings', boost: 3 },
  { name: 'tags', boost: 3 },
  { name: 'properties', boost: 0.8 },
  { name: 'aliases', boost: 6 },
] as const;
/** A field's name in {@link FIELDS}. */
export type FieldName = (typeof FIELDS)[number]['name'];
/** Number of indexed fields; field numbers are 0 ≤ f < FIELD_COUNT, the positions in {@link FIELDS}. */
export const FIELD_COUNT = FIELDS.length;
/** Each field's BM25F weight by field number, read from {@link FIELDS}. */
export const FIELD_BOOSTS: readonly number[] = FIELDS.map((f) => f.boost);
/** Field number by name, read from {@link FIELDS}. */
const FIELD = Object.fromEntries(FIELDS.map((f, i) => [f.name, i])) as Record<FieldName, number>;
/** Frontmatter keys with a field of their own, left out of `properties` (Obsidian's aliases and tags keys). */
const OWN_FIELD_KEYS = new Set(['aliases', 'alias', 'tags', 'tag']);
/** What {@link fieldTexts} reads of a note: its record's path, title, tags and frontmatter, its full text and heading texts. */
export interface FieldSource {
  path: string;
  title: string;
  tags: readonly string[];
  frontmatter: Record<string, unknown>;
  text: string;
  headings: readonly string[];
}

/**
 * The text of each field of {@link FIELDS} for one note: the path without `.md`, the body
 * without frontmatter, headings one a line, aliases (`aliases`/`alias`) apart from the other
 * frontmatter values, and tags neither in `properties`.
 * @returns FIELD_COUNT strings, by field number
 */
export function fieldTexts(note: FieldSource): string[] {
  const fields: string[] = new Array<string>(FIELD_COUNT);
  fields[FIELD.title] = note.title;
  fields[FIELD.path] = note.path.replace(/\.md$/i, '');
  fields[FIELD.body] = note.text.slice(bodyStart(note.text));
  fields[FIELD.headings] = note.headings.join('\n');
  fields[FIELD.tags] = note.tags.join(' ');
  fields[FIELD.properties] = propertyText(note.frontmatter, (key) => !OWN_FIELD_KEYS.has(key.toLowerCase()));
  fields[FIELD.aliases] = propertyText(note.frontmatter, (key) => key.toLowerCase() === 'aliases' || key.toLowerCase() === 'alias');
  return fields;
}

/** Frontmatter values of the keys `keep` admits, as searchable text (keys left out; nested values flattened). */
function propertyText(frontmatter: Record<string, unknown>, keep: (key: string) => boolean): string {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (v === null || v === undefined) return;
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object') Object.values(v as Record<string, unknown>).forEach(walk);
    else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') out.push(String(v));
  };
  for (const [key, value] of Object.entries(frontmatter)) if (keep(key)) walk(value);
  return out.join('\n');
}
