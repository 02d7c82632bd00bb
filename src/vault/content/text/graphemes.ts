/**
 * Where text handed to an agent may be cut: between grapheme clusters, the characters a reader
 * sees (Unicode UAX #29 extended grapheme clusters: a letter with its combining accents, an
 * emoji with its skin tone or its zero-width-joiner parts, a two-letter flag, a Hangul
 * syllable, a surrogate pair). A cut inside one shows half a character (a bare accent, `👩‍`
 * without its `💻`), and a cut inside a surrogate pair sends a lone surrogate, which strict JSON
 * decoders (serde_json into a String, Python re-encoding to UTF-8) refuse: the whole answer fails.
 *
 * The rules come from `Intl.Segmenter` with granularity 'grapheme' (Node ≥ 16, Electron,
 * Safari ≥ 14.1), run only on {@link CLUSTER_REACH} code units on each side of the cut, never
 * on a whole note: a cut costs the same in a 1 MB note as in a short one. Without
 * `Intl.Segmenter`, and for a cluster longer than the reach (a run of dozens of stacked
 * accents), cuts keep only surrogate pairs whole.
 */

/** Code units looked at on each side of a cut: far more than any cluster of real text (a family emoji is 11, a tag flag 14). */
export const CLUSTER_REACH = 64;
/** How far back a run of regional indicators (flag halves) is followed to pair them as the text does, code units. */
const FLAG_RUN_REACH = 1024;

const segmenter: Intl.Segmenter | null =
  typeof Intl === 'object' && typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;

/** A cluster `[start, end)`, code-unit offsets; `start === end` when the offset asked about is a boundary. */
export interface ClusterBounds {
  start: number;
  end: number;
}

/**
 * The grapheme cluster that a cut at `at` would split.
 * @param text any string (lone surrogates are clusters of their own)
 * @param at a code-unit offset, 0 ≤ at ≤ text length
 * @returns `{start: at, end: at}` when `at` is a cluster boundary (always at 0 and the end),
 *   else the cluster around it: `start < at < end`. Only a surrogate pair when the cluster
 *   reaches past {@link CLUSTER_REACH} units from `at` or `Intl.Segmenter` is missing.
 */
export function clusterAround(text: string, at: number): ClusterBounds {
  if (at <= 0 || at >= text.length) return { start: at, end: at };
  const before = text.charCodeAt(at - 1);
  const after = text.charCodeAt(at);
  if (before === 13 && after === 10) return { start: at - 1, end: at + 1 };
  if (surelyBoundary(text, at, before, after)) return { start: at, end: at };
  const pair = isHigh(before) && isLow(after);
  if (segmenter === null) return pair ? { start: at - 1, end: at + 1 } : { start: at, end: at };
  let from = Math.max(0, at - CLUSTER_REACH);
  if (from > 0 && isLow(text.charCodeAt(from)) && isHigh(text.charCodeAt(from - 1))) from--;
  // Flags pair regional indicators from the start of their run: start the window where the run starts.
  for (const floor = Math.max(0, from - FLAG_RUN_REACH); from >= floor + 2 && isFlagHalf(text, from - 2);) from -= 2;
  let to = Math.min(text.length, at + CLUSTER_REACH);
  if (to < text.length && isHigh(text.charCodeAt(to - 1)) && isLow(text.charCodeAt(to))) to++;
  const seg = segmenter.segment(text.slice(from, to)).containing(at - from);
  const start = from + (seg?.index ?? at - from);
  const end = start + (seg?.segment.length ?? 0);
  if (start === at || (start === from && from > 0) || (end === to && to < text.length))
    return start === at ? { start: at, end: at } : pair ? { start: at - 1, end: at + 1 } : { start: at, end: at };
  return { start, end };
}

/**
 * The last cluster boundary at or before `at` (where a cut that must not pass `at` goes).
 * @param at 0 ≤ at ≤ text length
 * @returns an offset ≤ `at`; `at` itself when it is a boundary
 */
export function clusterStart(text: string, at: number): number {
  return clusterAround(text, at).start;
}

/**
 * The first cluster boundary at or after `at` (where a cut that must not stop before `at` goes).
 * @param at 0 ≤ at ≤ text length
 * @returns an offset ≥ `at`; `at` itself when it is a boundary
 */
export function clusterEnd(text: string, at: number): number {
  return clusterAround(text, at).end;
}

/**
 * The start of `text` cut to at most `maxChars` code units on a cluster boundary (see
 * {@link clusterStart}): `text` itself when it is no longer. When the first cluster alone is
 * longer than `maxChars`, that whole cluster (a page is never empty for a lack of room).
 * @param maxChars ≥ 0, code units
 */
export function clusterPrefix(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = clusterStart(text, maxChars);
  return text.slice(0, cut > 0 || maxChars === 0 ? cut : clusterEnd(text, maxChars));
}

/**
 * True when UAX #29 puts a boundary at `at` whatever else the text holds, read from the two
 * code units around it alone (no segmenter): what follows starts a cluster of its own (below
 * U+0300 but © and ®, kana and CJK ideographs but the combining voiced marks and the circled
 * ideographs ㊗ ㊙, an astral CJK ideograph) and what comes before cannot join it (no Prepend
 * sign, GB9b: those are in U+0600–U+0DFF and U+11000–U+11FFF). Latin text, spaces and CJK
 * take this path; other scripts ask the segmenter.
 */
function surelyBoundary(text: string, at: number, before: number, after: number): boolean {
  const alone =
    (after < 0x300 && after !== 0xa9 && after !== 0xae) ||
    (after >= 0x3041 && after <= 0x9fff && after !== 0x3099 && after !== 0x309a && after !== 0x3297 && after !== 0x3299) ||
    (after >= 0xd840 && after <= 0xd8bf);
  if (!alone || (before >= 0x600 && before <= 0xdff)) return false;
  if (!isLow(before)) return true;
  const high = text.charCodeAt(at - 2);
  return high < 0xd804 || high > 0xd807;
}

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** True when `text[at, at + 2)` is a regional indicator (U+1F1E6–U+1F1FF, `\ud83c\udde6`–`\ud83c\uddff`). */
function isFlagHalf(text: string, at: number): boolean {
  const low = text.charCodeAt(at + 1);
  return text.charCodeAt(at) === 0xd83c && low >= 0xdde6 && low <= 0xddff;
}
