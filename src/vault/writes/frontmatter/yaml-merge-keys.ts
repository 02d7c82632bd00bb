/**
 * YAML 1.1 merge keys (`<<: *anchor`, https://yaml.org/type/merge.html) read the same whether or
 * not the app's `parseYaml` expands them: Obsidian shows the properties a merge key brings in as
 * the note's own, a YAML 1.2 parser leaves a plain `<<` key holding them. Code that must judge
 * what the note shows (protected keys, property writes) reads both through {@link withMergeKeys}.
 */

/** The merge key's name. */
export const MERGE_KEY = '<<';

/**
 * `value` with YAML 1.1 merge keys expanded at every depth: a `<<` key whose value is a
 * mapping, or a list of mappings, is replaced by their entries; the mapping's own keys win,
 * then earlier mappings in the list. A parser that expands merge keys itself leaves no `<<` to
 * expand, so the result is the same either way. A `<<` holding anything else stays a plain key.
 * Each object is expanded once, however many aliases share it (a parser without an alias limit
 * returns `&a [*b, *b]` chains as shared objects: walked as a tree, 25 such levels are 2^25
 * leaves), and an alias cycle ends where it comes back.
 * @param value a parsed YAML value (not changed; mappings are copied where they expand).
 */
export function withMergeKeys(value: unknown): unknown {
  return expand(value, new Set(), new Map());
}

/** {@link withMergeKeys} of `value`, with the objects on the current path (`path`) and those already expanded (`done`). */
function expand(value: unknown, path: Set<object>, done: Map<object, unknown>): unknown {
  if (value === null || typeof value !== 'object' || path.has(value)) return value;
  if (done.has(value)) return done.get(value);
  path.add(value);
  let out: unknown;
  if (Array.isArray(value)) out = value.map((item) => expand(item, path, done));
  else {
    const own = value as Record<string, unknown>;
    const sources = Array.isArray(own[MERGE_KEY]) ? (own[MERGE_KEY] as unknown[]) : [own[MERGE_KEY]];
    const mergeable =
      MERGE_KEY in own && sources.every((source) => source !== null && typeof source === 'object' && !Array.isArray(source));
    const mapping: Record<string, unknown> = {};
    if (mergeable) for (const source of [...sources].reverse()) Object.assign(mapping, expand(source, path, done));
    for (const [key, item] of Object.entries(own)) if (!(mergeable && key === MERGE_KEY)) mapping[key] = expand(item, path, done);
    out = mapping;
  }
  path.delete(value);
  done.set(value, out);
  return out;
}

/**
 * The properties a frontmatter mapping shows, merge keys expanded ({@link withMergeKeys}).
 * @param data a parsed frontmatter mapping. @returns a new mapping (never `data` itself).
 */
export function shownProperties(data: Record<string, unknown>): Record<string, unknown> {
  return { ...(withMergeKeys(data) as Record<string, unknown>) };
}
