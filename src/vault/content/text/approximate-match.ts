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
 * A pattern's match masks (Myers' Peq): per UTF-16 unit, one 32-bit mask per block, bit i set where
 * the pattern's unit `block × 32 + i` is that unit.
 */
interface MatchMasks {
  blocks: number;
  ascii: Int32Array;
  other: Map<number, Int32Array>;
  /** The masks of a unit the pattern does not hold: all 0. */
  none: Int32Array;
}

/**
 * How many patterns' masks are kept: a did-you-mean reads every note with a few patterns in turn
 * (the name asked for, a path's last segment, each word of it), and building them on each switch
 * cost more than the distances (0.46 s of a 100k-note did-you-mean of a path, session 42).
 */
const KEPT_PATTERNS = 16;

/** The masks of the last {@link KEPT_PATTERNS} patterns, oldest first. */
const keptMasks = new Map<string, MatchMasks>();

/** The pattern's column, per block: vertical deltas +1 (`pv`) and −1 (`mv`); grown to the longest pattern's blocks. */
let pv = new Int32Array(0);
let mv = new Int32Array(0);

/** The masks of `pattern`, built unless kept ({@link keptMasks}), with the column's blocks grown to hold them. */
function matchMasks(pattern: string): MatchMasks {
  const kept = keptMasks.get(pattern);
  if (kept !== undefined) return kept;
  const blocks = Math.ceil(pattern.length / BLOCK_BITS);
  const masks: MatchMasks = { blocks, ascii: new Int32Array(128 * blocks), other: new Map(), none: new Int32Array(blocks) };
  for (let i = 0; i < pattern.length; i++) {
    const unit = pattern.charCodeAt(i);
    const bit = 1 << (i % BLOCK_BITS);
    const block = Math.floor(i / BLOCK_BITS);
    if (unit < 128) masks.ascii[unit * blocks + block] |= bit;
    else {
      let unitMasks = masks.other.get(unit);
      if (unitMasks === undefined) masks.other.set(unit, (unitMasks = new Int32Array(blocks)));
      unitMasks[block] |= bit;
    }
  }
  if (keptMasks.size >= KEPT_PATTERNS) keptMasks.delete(keptMasks.keys().next().value as string);
  keptMasks.set(pattern, masks);
  if (pv.length < blocks) {
    pv = new Int32Array(blocks);
    mv = new Int32Array(blocks);
  }
  return masks;
}

/**
 * The distance {@link substringEditDistance} defines, exact at any distance: Myers' bit-vector
 * algorithm (G. Myers, "A fast bit-vector algorithm for approximate string matching based on
 * dynamic programming", J. ACM 46(3), 1999), the pattern's column split in 32-bit blocks that pass
 * each text unit's horizontal delta down from one to the next (H. Hyyrö's block form), and a free
 * start in the text (the top row stays 0). Each text unit costs one step per block; the masks are
 * built once per pattern ({@link matchMasks}). It replaced approx-string-match, whose search built its tables on every
 * call and then looked for each match's start: 0.8–1.1 s of a 100k-note did-you-mean
 * (docs/performance.md, session 41).
 */
function bitVectorDistance(pattern: string, text: string): number {
  const { blocks, ascii, other, none } = matchMasks(pattern);
  const last = blocks - 1;
  const high = 1 << ((pattern.length - 1) % BLOCK_BITS);
  pv.fill(-1, 0, blocks);
  mv.fill(0, 0, blocks);
  let score = pattern.length;
  let best = score;
  for (let j = 0; j < text.length; j++) {
    const unit = text.charCodeAt(j);
    const masks = unit < 128 ? null : (other.get(unit) ?? none);
    // The delta the row above passes into a block's top cell: 0 into the first (a match may start anywhere).
    let carry = 0;
    for (let b = 0; b < blocks; b++) {
      const peq = masks === null ? ascii[unit * blocks + b] : masks[b];
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
  return countUnmatched(pattern, text, 0, text.length, false);
}

/**
 * {@link unmatchedUnits} of `pattern` (lower-cased NFC) in the lower-cased NFC form of
 * `text.slice(start, end)`, read from `text` as it is: for an ASCII stretch that form is the stretch
 * with A–Z lowered, so a did-you-mean bounds a note's name or path without making that form. A
 * stretch holding a unit outside ASCII is not bounded (0): its lower-cased NFC form may differ in
 * any unit (`K`, the Kelvin sign, becomes `k`; `e` and a combining acute become `é`).
 * @param start first index (UTF-16 units), inclusive
 * @param end last index, exclusive
 * @returns a lower bound of {@link substringEditDistance} from `pattern` to that form
 */
export function unmatchedInAscii(pattern: string, text: string, start = 0, end = text.length): number {
  return countUnmatched(pattern, text, start, end, true);
}

/**
 * {@link unmatchedUnits} over `text.slice(start, end)`; with `asciiFolded`, the stretch read with A–Z lowered and 0 (no
 * bound) at its first unit outside ASCII ({@link unmatchedInAscii}).
 */
function countUnmatched(pattern: string, text: string, start: number, end: number, asciiFolded: boolean): number {
  const need = (unmatched ??= new Uint16Array(0x10000));
  for (let i = 0; i < pattern.length; i++) need[pattern.charCodeAt(i)]++;
  let left = pattern.length;
  for (let i = start; i < end && left > 0; i++) {
    let unit = text.charCodeAt(i);
    if (asciiFolded) {
      if (unit > 127) {
        left = 0;
        break;
      }
      if (unit >= 65 && unit <= 90) unit += 32;
    }
    if (need[unit] > 0) {
      need[unit]--;
      left--;
    }
  }
  for (let i = 0; i < pattern.length; i++) need[pattern.charCodeAt(i)] = 0;
  return left;
}
