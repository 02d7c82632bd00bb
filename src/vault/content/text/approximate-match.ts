/**
 * The fewest edits (insertions, deletions, substitutions of UTF-16 code units) that make
 * `pattern` appear somewhere in `text`: the Levenshtein distance from `pattern` to its closest
 * substring of `text`, the measure Fuse.js's Bitap approximates, by Myers' bit-vector algorithm
 * ({@link bitVectorDistance}). A text whose units cannot hold the pattern within `maxErrors` edits
 * ({@link unmatchedUnits}) is not searched: any answer above `maxErrors` only means "more than
 * that". Case and Unicode normalization are the caller's.
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
  // Nothing to search in: every unit of the pattern is deleted.
  if (pattern === '' || text === '') return pattern.length;
  // Most texts a did-you-mean reads are far from the pattern: the bound answers for them without the search.
  if (unmatchedUnits(pattern, text) > maxErrors) return maxErrors + 1;
  return bitVectorDistance(pattern, text);
}

/** Pattern units one block (a 32-bit word) of {@link bitVectorDistance} holds. */
const BLOCK_BITS = 32;

/**
 * The pattern whose match masks {@link matchMasks} holds, kept while calls repeat it (a did-you-mean
 * reads every note with one): per UTF-16 unit, one 32-bit mask per block, bit i set where the
 * pattern's unit `block × 32 + i` is that unit (Myers' Peq).
 */
let masksOf = '';
let blocks = 0;
let asciiMasks = new Int32Array(0);
const otherMasks = new Map<number, Int32Array>();
let noMatch = new Int32Array(0);
/** The pattern's column, per block: vertical deltas +1 (`pv`) and −1 (`mv`). */
let pv = new Int32Array(0);
let mv = new Int32Array(0);

/** Builds the masks and the column's blocks for `pattern`, unless they are its already. */
function matchMasks(pattern: string): void {
  if (pattern === masksOf) return;
  blocks = Math.ceil(pattern.length / BLOCK_BITS);
  asciiMasks = new Int32Array(128 * blocks);
  otherMasks.clear();
  noMatch = new Int32Array(blocks);
  pv = new Int32Array(blocks);
  mv = new Int32Array(blocks);
  for (let i = 0; i < pattern.length; i++) {
    const unit = pattern.charCodeAt(i);
    const bit = 1 << (i % BLOCK_BITS);
    const block = Math.floor(i / BLOCK_BITS);
    if (unit < 128) asciiMasks[unit * blocks + block] |= bit;
    else {
      let masks = otherMasks.get(unit);
      if (masks === undefined) otherMasks.set(unit, (masks = new Int32Array(blocks)));
      masks[block] |= bit;
    }
  }
  masksOf = pattern;
}

/**
 * The distance {@link substringEditDistance} defines, exact at any distance: Myers' bit-vector
 * algorithm (G. Myers, "A fast bit-vector algorithm for approximate string matching based on
 * dynamic programming", J. ACM 46(3), 1999), the pattern's column split in 32-bit blocks that pass
 * each text unit's horizontal delta down from one to the next (H. Hyyrö's block form), and a free
 * start in the text (the top row stays 0). Each text unit costs one step per block; the masks are
 * built once per pattern. It replaced approx-string-match, whose search built its tables on every
 * call and then looked for each match's start: 0.8–1.1 s of a 100k-note did-you-mean
 * (docs/performance.md, session 41).
 */
function bitVectorDistance(pattern: string, text: string): number {
  matchMasks(pattern);
  const last = blocks - 1;
  const high = 1 << ((pattern.length - 1) % BLOCK_BITS);
  pv.fill(-1);
  mv.fill(0);
  let score = pattern.length;
  let best = score;
  for (let j = 0; j < text.length; j++) {
    const unit = text.charCodeAt(j);
    const masks = unit < 128 ? null : (otherMasks.get(unit) ?? noMatch);
    // The delta the row above passes into a block's top cell: 0 into the first (a match may start anywhere).
    let carry = 0;
    for (let b = 0; b < blocks; b++) {
      const peq = masks === null ? asciiMasks[unit * blocks + b] : masks[b];
      const p = pv[b];
      const m = mv[b];
      const eq = peq | (carry < 0 ? 1 : 0);
      const xv = eq | m;
      const xh = ((((eq & p) + p) | 0) ^ p) | eq;
      let ph = m | ~(xh | p);
      let mh = p & xh;
      const top = b === last ? high : 1 << 31;
      const out = (ph & top) !== 0 ? 1 : (mh & top) !== 0 ? -1 : 0;
      ph = (ph << 1) | (carry > 0 ? 1 : 0);
      mh = (mh << 1) | (carry < 0 ? 1 : 0);
      pv[b] = mh | ~(xv | ph);
      mv[b] = ph & xv;
      carry = out;
    }
    score += carry;
    if (score < best) best = score;
  }
  return best;
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
