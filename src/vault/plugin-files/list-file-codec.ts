/**
 * Strict reading of the plugin's own versioned list files (`{"version": N, "<list>": [...]}`:
 * proposals.json, activity.json): the shared steps of their codecs, so a damaged file is
 * noticed (and kept aside by its owner) instead of half-loaded. Each codec keeps its own field table.
 */

/** How one list file reads: its format version, the name of its list, and what is wrong with an item. */
export interface ListFileFormat {
  /** The format version written; a file with another version is refused. */
  version: number;
  /** The key of the list in the file (`proposals`, `entries`). */
  list: string;
  /** What an item is called in messages (`proposal`, `entry`). */
  item: string;
  /** What is wrong with one parsed item, as a short phrase, or null when it is well-formed. */
  problemOf(item: unknown): string | null;
}

/**
 * Reads a list file.
 * @returns its items, in file order, typed as the caller's item type (each passed `problemOf`).
 * @throws Error naming the first problem (not JSON, no list, wrong version, a malformed item
 *   and its position counted from 1) when the text is not such a file.
 */
export function parseListFile<T>(text: string, format: ListFileFormat): T[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`not valid JSON (${(err as Error).message})`);
  }
  const items = isRecord(data) ? data[format.list] : undefined;
  if (!isRecord(data) || !Array.isArray(items)) throw new Error(`no "${format.list}" list`);
  if (data.version !== format.version) throw new Error(`format version ${String(data.version)}, expected ${format.version}`);
  return items.map((item: unknown, i) => {
    const problem = format.problemOf(item);
    if (problem) throw new Error(`${format.item} #${i + 1}: ${problem}`);
    return item as T;
  });
}

/** True for a plain JSON object (not null, not a list). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The first of `keys` whose value in `record` is not a string as `rule` asks: `required` a
 * non-empty string, `nullable` a string or null, `optional` a string or absent.
 * @returns the problem as a phrase (`"id" must be a non-empty string`), or null when all are right.
 */
export function stringFieldProblem(
  record: Record<string, unknown>,
  keys: readonly string[],
  rule: 'required' | 'nullable' | 'optional',
): string | null {
  for (const key of keys) {
    const value = record[key];
    if (rule === 'required' && (typeof value !== 'string' || value === '')) return `"${key}" must be a non-empty string`;
    if (rule === 'nullable' && value !== null && typeof value !== 'string') return `"${key}" must be a string or null`;
    if (rule === 'optional' && value !== undefined && typeof value !== 'string') return `"${key}" must be a string`;
  }
  return null;
}
