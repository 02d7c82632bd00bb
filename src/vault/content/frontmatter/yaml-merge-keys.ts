/**
 * YAML 1.1 merge keys (`<<: *anchor`, https://yaml.org/type/merge.html) in parsed frontmatter,
 * read the same whether or not the app's `parseYaml` expands them: Obsidian shows the properties
 * a merge key brings in as the note's own, a YAML 1.2 parser leaves a plain `<<` key holding
 * them. Two readings share this module's walk ({@link walkOnce}) and merge-key detection
 * ({@link MERGE_KEY}, {@link mergeSources}):
 * - what the note shows ({@link withMergeKeys}): the note's own keys win over merged ones, as a
 *   parser that expands merge keys gives them; code that must judge what the note shows
 *   (protected keys, property writes) reads it;
 * - the strictest reading of access rules (access-rules `noteAccess`): every rule any merged
 *   mapping holds counts, whichever would show.
 *
 * A parser without an alias limit returns `&a [*b, *b]` chains as shared objects: walked as a
 * tree, 25 such levels are 2^25 leaves. Both readings walk each object once, and an alias cycle
 * ends where it comes back.
 */

/** The merge key's name. */
export const MERGE_KEY = '<<';

/** True for a parsed YAML mapping (a plain object, not a list or null). */
export function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The sources a merge key's value names, in priority order: the items of a list, else the value
 * itself. A parser that expands merge keys merges them only when every one is a mapping (YAML
 * 1.1: a mapping or a list of mappings); what a reader does with other sources is its own rule.
 * @param value the value of a `<<` key.
 */
export function mergeSources(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [value];
}

/**
 * Walks the objects (mappings and lists) of a parsed YAML value depth first, entering each once
 * however many aliases share it, so `&a [*b, *b]` chains cost their size, not 2^depth, and an
 * alias cycle ends where it comes back. Iterative: a long alias chain does not overflow the stack.
 * @param start where the walk starts (a scalar: nothing is entered).
 * @param enter called once per object; `next(child)` schedules a value the object holds, walked
 *   after `enter` returns, in the order scheduled (scalars and objects entered before are
 *   skipped when their turn comes).
 * @param leave called for an object once everything its `enter` scheduled has been walked; a
 *   child entered but not yet left then is on the current path (an alias cycle).
 * @param entered objects already entered, to share across walks that read one value (default: none).
 */
export function walkOnce(
  start: unknown,
  enter: (node: object, next: (child: unknown) => void) => void,
  leave?: (node: object) => void,
  entered: Set<object> = new Set(),
): void {
  // [value, true] marks an object to leave once what was pushed above it is walked.
  const stack: Array<[value: unknown, leaving?: boolean]> = [[start]];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [value, leaving] = top;
    if (leaving) leave?.(value as object);
    else if (value !== null && typeof value === 'object' && !entered.has(value)) {
      entered.add(value);
      const children: unknown[] = [];
      enter(value, (child) => void children.push(child));
      if (leave) stack.push([value, true]);
      for (let i = children.length; i-- > 0;) stack.push([children[i]]);
    }
  }
}

/**
 * `value` with YAML 1.1 merge keys expanded at every depth: a `<<` key whose value is a
 * mapping, or a list of mappings, is replaced by their entries; the mapping's own keys win,
 * then earlier mappings in the list. A parser that expands merge keys itself leaves no `<<` to
 * expand, so the result is the same either way. A `<<` holding anything else stays a plain key.
 * Each object is expanded once, however many aliases share it ({@link walkOnce}), and what two
 * aliases shared is one object in the result too; an object met again on its own path (an
 * alias cycle) is left as it is there. A mapping or list with nothing to expand in it, at any
 * depth, is the very object given (no copy: frontmatter without merge keys, the usual case,
 * costs one walk of its keys, not a new mapping of every property).
 * @param value a parsed YAML value (not changed; mappings are copied where they expand). Do not
 *   change the result either: it may share objects with `value`.
 */
export function withMergeKeys(value: unknown): unknown {
  const shown = new Map<unknown, unknown>();
  const out = (item: unknown): unknown => (shown.has(item) ? shown.get(item) : item);
  walkOnce(
    value,
    (node, next) => {
      if (expandedSources(node) !== null) for (const [, item] of partsOf(node)) next(item);
      else for (const item of valuesOf(node)) if (item !== null && typeof item === 'object') next(item);
    },
    (node) => {
      // Nothing to expand here, nor in anything it holds: the object itself (keys read, no pair per entry).
      if (expandedSources(node) === null && valuesOf(node).every((item) => out(item) === item)) return void shown.set(node, node);
      if (Array.isArray(node)) return void shown.set(node, node.map(out));
      const mapping: Record<string, unknown> = {};
      for (const [key, item] of partsOf(node)) {
        if (key === null) Object.assign(mapping, out(item));
        else mapping[key] = out(item);
      }
      shown.set(node, mapping);
    },
  );
  return out(value);
}

/** The values a list or mapping holds, in order (a mapping's own keys' values, `<<` included). */
function valuesOf(node: object): unknown[] {
  if (Array.isArray(node)) return node;
  const own = node as Record<string, unknown>;
  return Object.keys(own).map((key) => own[key]);
}

/** The mappings a mapping's merge key brings in, when a parser would expand it (exactly `<<`, every source a mapping); else null. */
function expandedSources(node: object): readonly unknown[] | null {
  if (Array.isArray(node) || !(MERGE_KEY in node)) return null;
  const sources = mergeSources((node as Record<string, unknown>)[MERGE_KEY]);
  return sources.every(isMapping) ? sources : null;
}

/**
 * What {@link withMergeKeys} reads of one object, in the order it walks them: for a mapping
 * whose merge key a parser would expand ({@link expandedSources}), each merged mapping (key
 * null) from the last to the first, then the entries other than `<<`; for any other mapping,
 * and a list, its entries.
 */
function partsOf(node: object): Array<[key: string | null, value: unknown]> {
  const own = node as Record<string, unknown>;
  const merged = expandedSources(node);
  const parts = (merged ?? []).map((source): [string | null, unknown] => [null, source]).reverse();
  for (const [key, item] of Object.entries(own)) if (!(merged && key === MERGE_KEY)) parts.push([key, item]);
  return parts;
}

/**
 * The properties a frontmatter mapping shows, merge keys expanded ({@link withMergeKeys}).
 * @param data a parsed frontmatter mapping. @returns a new mapping (never `data` itself).
 */
export function shownProperties(data: Record<string, unknown>): Record<string, unknown> {
  return { ...(withMergeKeys(data) as Record<string, unknown>) };
}
