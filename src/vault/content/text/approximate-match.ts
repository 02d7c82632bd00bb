import search from 'approx-string-match';

/**
 * The fewest edits (insertions, deletions, substitutions of UTF-16 code units) that make
 * `pattern` appear somewhere in `text`: the Levenshtein distance from `pattern` to its closest
 * substring of `text`, the measure Fuse.js's Bitap approximates. Computed by approx-string-match
 * (Myers' bit-vector algorithm), which only looks for matches within `maxErrors` edits: any
 * answer above `maxErrors` only means "more than that". Case and Unicode normalization are the
 * caller's.
 * @param pattern what is looked for; empty matches anywhere (0)
 * @param text where it is looked for
 * @param maxErrors the largest distance the caller cares about (a whole number ≥ 0)
 * @returns the distance, exact when it is ≤ `maxErrors`; otherwise some number above `maxErrors`
 * @throws RangeError when `maxErrors` is negative or not a whole number
 */
export function substringEditDistance(pattern: string, text: string, maxErrors: number): number {
  if (!Number.isInteger(maxErrors) || maxErrors < 0) {
    throw new RangeError(`maxErrors must be a whole number ≥ 0, got ${maxErrors}.`);
  }
  // Nothing to search in: every unit of the pattern is deleted (the library reports no match).
  if (pattern === '' || text === '') return pattern.length;
  // Most texts a did-you-mean reads are far from the pattern: the bound answers for them without the search.
  if (unmatchedUnits(pattern, text) > maxErrors) return maxErrors + 1;
  const [best] = search(text, pattern, maxErrors);
  return best === undefined ? maxErrors + 1 : best.errors;
}

/** Per UTF-16 code unit, how many of the pattern's are still unmatched (zero between calls); made on first use. */
let unmatched: Uint16Array | null = null;

/**
 * How many of `pattern`'s code units find no equal unit in `text`, each unit of `text` used once:
 * a lower bound of {@link substringEditDistance}, since every such unit is substituted or deleted
 * in any alignment (the q-gram counting bound with q = 1). One pass over each string, no allocation;
 * the search it spares builds its tables on every call (a 14k-note did-you-mean made 40,000 of them).
 */
export function unmatchedUnits(pattern: string, text: string): number {
  const need = (unmatched ??= new Uint16Array(0x10000));
  for (let i = 0; i < pattern.length; i++) need[pattern.charCodeAt(i)]++;
  let left = pattern.length;
  for (let i = 0; i < text.length && left > 0; i++) {
    const unit = text.charCodeAt(i);
    if (need[unit] > 0) {
      need[unit]--;
      left--;
    }
  }
  for (let i = 0; i < pattern.length; i++) need[pattern.charCodeAt(i)] = 0;
  return left;
}
