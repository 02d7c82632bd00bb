import { quoteInput } from '../../errors';
import { propertyNameKey } from '../../vault/content/frontmatter/property-names';
import type { QueryNode } from './parser/query-ast';

/**
 * The property names a search query's filters need a note to have (`[due:>2026-03]`, `[status]`;
 * not those under a `-`), each once by {@link propertyNameKey}, as the query writes them. A query
 * that finds nothing and names one of these that no readable note has fails for that reason.
 * @returns property names in query order; none for a query without property filters.
 */
export function requiredPropertyNames(node: QueryNode): string[] {
  const names = new Map<string, string>();
  const walk = (n: QueryNode, negated: boolean): void => {
    switch (n.kind) {
      case 'and':
      case 'or':
        for (const child of n.children) walk(child, negated);
        return;
      case 'not':
        walk(n.child, !negated);
        return;
      case 'scope':
      case 'case':
        walk(n.child, negated);
        return;
      case 'property':
        if (!negated && !names.has(propertyNameKey(n.name))) names.set(propertyNameKey(n.name), n.name);
        return;
      default:
        return;
    }
  };
  walk(node, false);
  return [...names.values()];
}

/**
 * The property names of `frontmatters`, each once by {@link propertyNameKey} (as the first one that
 * has it spells it), in their order: what a name no note has is compared with.
 * @param frontmatters parsed frontmatter of the notes the caller may read (never others').
 */
export function distinctPropertyNames(frontmatters: Iterable<Record<string, unknown>>): string[] {
  const names = new Map<string, string>();
  for (const frontmatter of frontmatters) {
    for (const name of Object.keys(frontmatter)) {
      const key = propertyNameKey(name);
      if (!names.has(key)) names.set(key, name);
    }
  }
  return [...names.values()];
}

/**
 * The Levenshtein distance of two short strings (insertions, deletions, substitutions of UTF-16
 * units), by the textbook row-by-row table: property names are a few dozen units.
 */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}

/**
 * The property names of `held` closest to `name`, if within one edit (names of up to four
 * characters) or two (longer ones), compared by {@link propertyNameKey}: `tag` → `tags`, `staus`
 * → `status` (not also `tags`, two edits away).
 */
function closeNames(name: string, held: readonly string[]): string[] {
  const wanted = propertyNameKey(name);
  const edits = wanted.length <= 4 ? 1 : 2;
  let best = edits;
  let close: string[] = [];
  for (const other of held) {
    const key = propertyNameKey(other);
    if (Math.abs(key.length - wanted.length) > best) continue;
    const distance = editDistance(wanted, key);
    if (distance < best) [best, close] = [distance, []];
    if (distance === best) close.push(other);
  }
  return close;
}

/**
 * The `note` of an answer whose query names properties no note the caller may read has (search's
 * `[name…]` filters, query_notes' fields): a misspelt name matches nothing and says so nowhere
 * else. Names a close spelling the notes do have, and where a note's tags are found instead when
 * the query asked a property `tag`/`tags` none has.
 * @param absent the names as the query wrote them (at least one)
 * @param held the property names of the notes the caller may read, each once (never other notes':
 *   the answer would tell they exist)
 * @param tagsInstead a clause saying how the tool reads every tag of a note, e.g. 'file.tags has every tag of a note'
 * @returns one or two sentences.
 */
export function absentPropertiesRemark(absent: readonly string[], held: readonly string[], tagsInstead: string): string {
  const names = absent.map(quoteInput).join(', ');
  const close = [...new Set(absent.flatMap((name) => closeNames(name, held)))];
  const spelling =
    close.length > 0 ? `the notes have ${close.slice(0, 3).map(quoteInput).join(', ')}` : "list_notes shows each note's frontmatter";
  const tags = absent.some((name) => /^tags?$/i.test(name)) ? ` For tags, ${tagsInstead}, inline ones too.` : '';
  return `No note you can read has the ${absent.length === 1 ? 'property' : 'properties'} ${names} (names ignore case); check the spelling: ${spelling}.${tags}`;
}
