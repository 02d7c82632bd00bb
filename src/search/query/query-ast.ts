/**
 * The parsed form of a search query (produced by `query-parser.ts`, consumed by
 * `query-eval.ts`). Mirrors Obsidian's search syntax (Obsidian Help, "Search" → "Search
 * operators"): words, "phrases", -negation, OR, (groups), path:, file:, tag:, [property],
 * /regex/, plus this plugin's has:/-has: and [key:op value] comparisons.
 */

/** A text test used by `path:` and `file:`: a case-insensitive substring, or a regular expression. */
export type TextMatch = { kind: 'text'; text: string } | { kind: 'regex'; regex: RegExp };

/** Comparison operators of `[key:op value]`. */
export type CompareOp = '>' | '<' | '>=' | '<=' | '=';

/** What a property filter checks on one frontmatter value. */
export type PropertyTest =
  /** `[prop]` or `has:prop`: the note's frontmatter has the key. */
  | { op: 'exists' }
  /** `[prop:value]`: the value (or one list item) contains `value`, case-insensitively; `null` matches an empty value. */
  | { op: 'contains'; value: string }
  /** `[prop:>5]`, `[due:<=2024-06-01]`: numeric or date comparison; `=` also compares text exactly. */
  | { op: 'compare'; cmp: CompareOp; value: string };

/** One node of a parsed query. `and`/`or` have at least two children. */
export type QueryNode =
  | { kind: 'and'; children: QueryNode[] }
  | { kind: 'or'; children: QueryNode[] }
  | { kind: 'not'; child: QueryNode }
  /** A bare word: matched through the index (prefix and fuzzy for longer terms). */
  | { kind: 'word'; text: string }
  /** A "quoted phrase": its words in order, case-insensitive, whitespace-insensitive. */
  | { kind: 'phrase'; text: string }
  /** `/pattern/flags`: a JavaScript regular expression tested on the note body. */
  | { kind: 'regex'; regex: RegExp }
  | { kind: 'path'; match: TextMatch }
  | { kind: 'file'; match: TextMatch }
  /** `tag:#x` or `tag:x`: the tag `x` or any nested tag `x/...`; lower-case, without `#`. */
  | { kind: 'tag'; tag: string }
  /** A frontmatter filter; `name` is compared case-insensitively with the note's keys. */
  | { kind: 'property'; name: string; test: PropertyTest };
