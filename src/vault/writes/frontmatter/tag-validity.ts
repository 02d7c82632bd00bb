import { quoteInput, ToolError } from '../../../errors';

/**
 * A character that ends a tag in Obsidian: whitespace, and punctuation other than `_`, `-` and `/`
 * (help.obsidian.md/tags, "Tag format": letters, digits, underscore, hyphen and forward slash).
 */
const TAG_BREAK = /[\s!"#$%&'()*+,.:;<=>?@^`{|}~[\]\\\u2000-\u206F\u2E00-\u2E7F\u3000-\u303F]/u;

/** Whether a property named `key` holds tags: `tags` or `tag`, any case, as Obsidian's parseFrontMatterTags reads them. */
function isTagsProperty(key: string): boolean {
  return /^tags?$/i.test(key);
}

/**
 * Refuses a value of `tags` or `tag` (any case) that is no tag or list of tags: an object, a list
 * holding a list, an object or null. Obsidian reads each such item as text (`[object Object]` became
 * the tags `#[object` and `#Object]`), so what the agent meant is lost. Text, numbers and booleans
 * are kept, as Obsidian's properties editor keeps them.
 * @throws ToolError('invalid_argument') naming the property and what to give instead.
 */
export function assertTagsShape(key: string, value: unknown): void {
  if (!isTagsProperty(key) || value === null) return;
  const items: unknown[] = Array.isArray(value) ? value : [value];
  const bad: unknown = items.find((item) => item === null || typeof item === 'object');
  if (bad === undefined) return;
  const what = bad === null ? 'null' : Array.isArray(bad) ? 'a list' : 'an object';
  throw new ToolError(
    'invalid_argument',
    `${quoteInput(key)} holds ${Array.isArray(value) ? `${what} in its list` : what}: give a tag ("project") or a list of tags (["project", "idea"]), or null to delete it; nothing was changed.`,
  );
}

/**
 * What the result of a property write says of each tag Obsidian would not read as one
 * (help.obsidian.md/tags, "Tag format": no spaces or punctuation but `_`, `-` and `/`, and at
 * least one character that is not a digit). The value is stored as given, as Obsidian's own
 * properties editor stores it; an agent that meant a tag learns what to write instead.
 * @param key the property's name as stored (only `tags` and `tag`, any case, are read)
 * @param stored the property's value after the write (a list of tags, a string, or anything else)
 * @returns one sentence, or undefined when every tag is well formed
 */
export function malformedTagRemark(key: string, stored: unknown): string | undefined {
  if (!isTagsProperty(key)) return undefined;
  // A list holds one tag per item; a string is split at commas and spaces, as Obsidian's parseFrontMatterTags does.
  // A number is a tag as its digits (Obsidian reads `tags: [5]` as #5, which is no tag: only digits).
  const asText = (item: unknown): unknown => (typeof item === 'number' ? String(item) : item);
  const items: unknown[] = Array.isArray(stored)
    ? stored
    : typeof stored === 'string'
      ? stored.split(/[,\s]+/).map((t) => t.replace(/^#+/, ''))
      : [stored];
  const bad = items
    .map(asText)
    .filter((item): item is string => typeof item === 'string' && item !== '' && (TAG_BREAK.test(item) || /^[\d/]+$/.test(item)));
  if (bad.length === 0) return undefined;
  const first = bad[0];
  const fix = /^[\d/]+$/.test(first) ? `add a letter (${quoteInput(`y${first}`)})` : `write ${quoteInput(wellFormed(first))}`;
  const more = bad.length > 1 ? ` (and ${bad.length - 1} more)` : '';
  return (
    `${quoteInput(first)}${more} in ${quoteInput(key)} is stored as given, but it is no valid Obsidian tag (a tag holds ` +
    `letters, digits, '_', '-' and '/', and not only digits: help.obsidian.md/tags): to make it one, ${fix}.`
  );
}

/** Symbols that carry a tag's meaning (`c++`, `c#`, `r&d`, `.net`), spelt out rather than dropped. */
const SPELT_SYMBOLS: ReadonlyArray<[RegExp, string]> = [
  [/\+/g, ' plus '],
  [/#/g, ' sharp '],
  [/&/g, ' and '],
  [/@/g, ' at '],
  [/^\./, 'dot '],
];

/**
 * `tag` as a well-formed tag: symbols that carry its meaning spelt out (`c++` → `c-plus-plus`,
 * `c#` → `c-sharp`: dropping them made `c` of both, another tag), then each run of tag-breaking
 * characters made one `-` (none at either end: `my tag` → `my-tag`).
 */
function wellFormed(tag: string): string {
  const spelt = SPELT_SYMBOLS.reduce((text, [symbol, word]) => text.replace(symbol, word), tag);
  const parts = spelt.split(new RegExp(`${TAG_BREAK.source}+`, 'u')).filter((part) => part !== '');
  return parts.join('-') || 'tag';
}
