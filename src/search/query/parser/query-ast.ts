/**
 * The parsed form of a search query (produced by `query-parser.ts`, consumed by
 * `query-eval.ts`). Mirrors Obsidian's search syntax (Obsidian Help, "Search" → "Search
 * terms", "Search operators", "Search properties"): words, "phrases", -negation, OR,
 * (groups), `file:`, `path:`, `content:`, `match-case:`, `ignore-case:`, `tag:`, `line:`,
 * `block:`, `section:`, `task:`, `task-todo:`, `task-done:`, `[property]`,
 * `[property:value]`, /regex/, plus this plugin's has:/-has: and [key:op value] comparisons.
 */

/** A text test used by `path:` and `file:`: a case-insensitive substring, or a regular expression. */
export type TextMatch = { kind: 'text'; text: string } | { kind: 'regex'; regex: RegExp };

/** Comparison operators of `[key:op value]`. */
export type CompareOp = '>' | '<' | '>=' | '<=' | '=';

/** What a property filter checks on one frontmatter value. */
export type PropertyTest =
  /** `[prop]` or `has:prop`: the note's frontmatter has the key. */
  | { op: 'exists' }
  /** `[prop:value]`: the value (or one list item) contains `value`, case-insensitively. */
  | { op: 'contains'; value: string }
  /** `[prop:null]`: the key is there with no value (`prop:` in YAML); not `""` nor `[]`, as Obsidian documents. */
  | { op: 'null' }
  /** `[prop:/re/]`: the value (or one list item) matches the regular expression. */
  | { op: 'regex'; regex: RegExp }
  /** `[prop:>5]`, `[due:<=2024-06-01]`: numeric or date comparison; `=` also compares text exactly. */
  | { op: 'compare'; cmp: CompareOp; value: string };

/**
 * The stretch of note text an operator looks in (Obsidian Help, "Search operators"), always
 * within the note body (after the frontmatter):
 * - `content`: the whole body, not the note's name or path;
 * - `line`: one line;
 * - `block`: one Markdown block (paragraph, list item, heading, code block, quote, table...);
 * - `section`: the text from one heading to the next (or from the start to the first heading);
 * - `task`, `task-todo`, `task-done`: one task list item (`- [ ]`), any / unchecked (status
 *   space) / checked (any other status character).
 */
export type TextScope = 'content' | 'line' | 'block' | 'section' | 'task' | 'task-todo' | 'task-done';

/**
 * One node of a parsed query. `and`/`or` have at least two children. `grouped` marks a word or
 * an AND written inside parentheses of its own (`alpha (beta)`): such a query is a filter, not
 * plain words (query-plan.ts plainWords).
 */
export type QueryNode =
  | { kind: 'and'; children: QueryNode[]; grouped?: true }
  | { kind: 'or'; children: QueryNode[] }
  | { kind: 'not'; child: QueryNode }
  /** A bare word: matched through the index (prefix and fuzzy for longer terms). */
  | { kind: 'word'; text: string; grouped?: true }
  /** A "quoted phrase": its words in order, case-insensitive, whitespace-insensitive. */
  | { kind: 'phrase'; text: string }
  /** `/pattern/flags`: a JavaScript regular expression tested on the note body (or the scope's text). */
  | { kind: 'regex'; regex: RegExp }
  | { kind: 'path'; match: TextMatch }
  | { kind: 'file'; match: TextMatch }
  /** `tag:#x` or `tag:x`: the tag `x` or any nested tag `x/...`; lower-case, without `#`. */
  | { kind: 'tag'; tag: string }
  /** A frontmatter filter; `name` is compared case-insensitively with the note's keys. */
  | { kind: 'property'; name: string; test: PropertyTest }
  /** `line:(…)`, `block:(…)`, `section:(…)`, `task:…`, `content:…`: `child` holds within one stretch of that kind. */
  | { kind: 'scope'; scope: TextScope; child: QueryNode }
  /** `match-case:…` (`sensitive` true) / `ignore-case:…`: the words and phrases of `child` compare case-sensitively or not. */
  | { kind: 'case'; sensitive: boolean; child: QueryNode };
