import { isSpace } from '../engine/filters/phrase-filter';
import { hasUnsegmented, queryTerms } from '../engine/text/tokenizer';

/**
 * How a query's literal text (a phrase, a word the index cannot decide, a case-sensitive
 * word) is found on note text. The patterns are built from escaped query text only, never
 * from a user regex, so they run without the RegexGuard.
 */

/**
 * A regex for a phrase or literal word: its whitespace-separated parts in order, any run of
 * whitespace between them. Each character matches its composed (NFC) and decomposed (NFD)
 * spelling, so `pastéis` finds a note saved as `paste\u0301is` (Unicode canonical
 * equivalence, UAX #15; macOS tools often write NFD).
 * @param sensitive true for `match-case:` (case must match), else case-insensitive
 */
export function literalPattern(text: string, sensitive = false): RegExp {
  const parts = text.normalize('NFC').trim().split(/\s+/);
  // Case-insensitive ASCII text: each letter as a class of its case variants, without the i
  // flag, which makes V8 run the pattern about ten times slower on long notes (a phrase over
  // common words is tested on thousands of them). The classes are what `iu` matches.
  if (!sensitive && isAscii(text)) return new RegExp(parts.map(asciiCaselessPattern).join('\\s+'), 'u');
  return new RegExp(parts.map(canonicalPattern).join('\\s+'), sensitive ? 'u' : 'iu');
}

/**
 * {@link literalPattern} for testing whether text holds the literal (`test` only, not spans):
 * for ASCII text the same source without the `u` flag, which V8 runs about twice as fast
 * (a common phrase is tested on hundreds of notes per search). It matches the same strings:
 * every atom of that source is one BMP code unit outside the surrogates or a class of them,
 * and `\s` is the same set in both modes, so no match depends on how surrogate pairs are read.
 * Other text keeps literalPattern's flags.
 * @param sensitive true for `match-case:` (case must match), else case-insensitive
 */
export function literalTest(text: string, sensitive = false): RegExp {
  const pattern = literalPattern(text, sensitive);
  return isAscii(text) ? new RegExp(pattern.source, pattern.flags.replace('u', '')) : pattern;
}

/**
 * Whether a {@link literalPattern} of `parts` whitespace-separated parts matches
 * `` `${title}\n${text}` `` (what a phrase is tested on), without building that string per note:
 * the pattern has no assertions, so a match starting in the text is a match of the text
 * alone, and one starting in the title ends within the text's first `parts` chunks (each
 * later part lies inside one chunk). Joining a 2 KB text to its title cost more than the
 * test itself when a phrase of common words is checked on tens of thousands of notes.
 * @param parts the number of parts the pattern was built from (≥ 1)
 */
export function matchesTitleAndText(pattern: RegExp, parts: number, title: string, text: string): boolean {
  if (pattern.test(text)) return true;
  let end = 0;
  for (let chunk = 0; chunk < parts && end < text.length; chunk++) {
    while (end < text.length && isSpace(text.charCodeAt(end))) end++;
    while (end < text.length && !isSpace(text.charCodeAt(end))) end++;
  }
  return pattern.test(`${title}\n${text.slice(0, end)}`);
}

/** Number of whitespace-separated parts {@link literalPattern} builds a pattern of for `text`. */
export function literalParts(text: string): number {
  return text.normalize('NFC').trim().split(/\s+/).length;
}

/**
 * Under the `iu` flags two characters match when their simple case foldings are equal
 * (ECMA-262 Canonicalize with Unicode CaseFolding.txt, statuses C and S); the only
 * non-ASCII characters folding to an ASCII letter are KELVIN SIGN (to k) and LATIN SMALL
 * LETTER LONG S (to s).
 */
const FOLDS_TO_ASCII: Record<string, string> = { k: '\u212a', s: '\u017f' };

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** The pattern of one whitespace-free ASCII part, matching what `literalPattern(part)` with the `iu` flags matches, without them. */
function asciiCaselessPattern(part: string): string {
  let out = '';
  for (const ch of part) {
    const lower = ch.toLowerCase();
    out += lower === ch.toUpperCase() ? escapeRegExp(ch) : `[${lower}${lower.toUpperCase()}${FOLDS_TO_ASCII[lower] ?? ''}]`;
  }
  return out;
}

/**
 * A case-sensitive regex for a word inside `match-case:`: the word as typed where a word
 * starts (not after a letter, digit or mark), so `match-case:Happy` finds "Happy" and
 * "HappyCat" but neither "happy" nor "unHappy" — the prefix rule every query word follows,
 * without typo tolerance, since the case is meant exactly.
 */
export function caseSensitiveWordPattern(word: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}\\p{M}])${literalPattern(word, true).source}`, 'u');
}

/** The pattern of one whitespace-free part: each character as itself, or `(?:nfc|nfd)` where the two differ. */
function canonicalPattern(part: string): string {
  let out = '';
  for (const ch of part) {
    const nfd = ch.normalize('NFD');
    out += nfd === ch ? escapeRegExp(ch) : `(?:${escapeRegExp(ch)}|${escapeRegExp(nfd)})`;
  }
  return out;
}

/**
 * Whether the index alone decides a word (prefix and fuzzy matches included). Not for words
 * without index terms (punctuation only), nor for words in unsegmented scripts, whose
 * bigrams must also be adjacent on the text: those are checked like a phrase.
 */
export function decidedByIndex(word: string): boolean {
  return queryTerms(word).length > 0 && !hasUnsegmented(word);
}

const patterns = new Map<string, RegExp>();
/** Most literal patterns kept between queries (they are cheap to rebuild). */
const MAX_PATTERNS = 256;

/**
 * The literal pattern of `text`, cached between queries ({@link MAX_PATTERNS} at most):
 * {@link caseSensitiveWordPattern} for `word-case`, else {@link literalTest} (case-sensitive for `phrase-case`).
 */
export function cachedPattern(text: string, kind: 'phrase' | 'phrase-case' | 'word-case'): RegExp {
  const key = `${kind}\u0000${text}`;
  let p = patterns.get(key);
  if (p === undefined) {
    p = kind === 'word-case' ? caseSensitiveWordPattern(text) : literalTest(text, kind === 'phrase-case');
    if (patterns.size >= MAX_PATTERNS) patterns.clear();
    patterns.set(key, p);
  }
  return p;
}

/** Escapes a string for use inside a RegExp (every syntax character, `/` included). */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
