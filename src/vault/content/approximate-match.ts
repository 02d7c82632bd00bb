/**
 * The fewest edits (insertions, deletions, substitutions of UTF-16 code units) that make
 * `pattern` appear somewhere in `text`: the Levenshtein distance from `pattern` to its closest
 * substring of `text` (Sellers' algorithm, the measure Bitap approximates). Distances above
 * `maxErrors` are not computed exactly (Ukkonen's cut-off keeps the work near
 * `maxErrors × text.length` cells): any answer above `maxErrors` only means "more than that".
 * Case and Unicode normalization are the caller's.
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
  const length = pattern.length;
  const limit = Math.min(maxErrors, length);
  // column[i]: the fewest edits that make pattern[0, i) end at the text position scanned so far.
  const column = Array.from({ length: length + 1 }, (_, i) => i);
  let best = length;
  // Rows past `deepest` are known to be above `limit`, so they are not computed.
  let deepest = limit;
  for (let j = 0; j < text.length; j++) {
    const unit = text.charCodeAt(j);
    const rows = Math.min(deepest + 1, length);
    let diagonal = 0;
    for (let i = 1; i <= rows; i++) {
      const before = i <= deepest ? column[i] : limit + 1;
      column[i] = Math.min(diagonal + (pattern.charCodeAt(i - 1) === unit ? 0 : 1), before + 1, column[i - 1] + 1);
      diagonal = before;
    }
    deepest = rows;
    while (deepest > 0 && column[deepest] > limit) deepest--;
    if (rows === length && column[length] < best) best = column[length];
  }
  return best;
}
