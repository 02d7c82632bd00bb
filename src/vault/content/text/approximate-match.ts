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
  const [best] = search(text, pattern, maxErrors);
  return best === undefined ? maxErrors + 1 : best.errors;
}
